/**
 * The command tree as the completion scripts see it, read from the live
 * commander program: names, aliases, options, fixed values. The scripts are
 * generated from this, so they cannot drift from the real commands.
 */
import * as schemas from '../api/endpoints/schemas.js';
import { SUBSCRIPTION_STATUSES } from '../api/endpoints/vocabulary.js';
import type { Argument, Command, Option } from 'commander';
import { recordFieldsOf } from '../commands/shared/command-kit.js';
import { schemaPaths } from '../commands/shared/field-names.js';
import type { CompletionHelper } from './complete.js';

/** Where a value comes from: fixed words (maybe a comma list), a completion helper (profiles, undo ids), or files. */
export type ValueSource =
  | { kind: 'words'; words: readonly string[]; commaList?: boolean }
  | { kind: 'helper'; helper: CompletionHelper; commaList?: boolean }
  | { kind: 'files' };

export interface OptionSpec {
  short?: string;
  long?: string;
  description: string;
  /** Absent for a flag. */
  value?: { name: string; source?: ValueSource };
  /** May be given more than once (a collecting option). */
  repeatable: boolean;
  /** Ends the command line (`--help`, `--version`): nothing else is offered with it. */
  terminal: boolean;
}

export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  source?: ValueSource;
}

export interface CommandSpec {
  /** Names from the root, e.g. ['students', 'get']; [] for the root. */
  path: string[];
  name: string;
  aliases: string[];
  description: string;
  /** Options of this command only; the global ones are in CompletionSpec.globals. */
  options: OptionSpec[];
  commands: CommandSpec[];
  args: ArgumentSpec[];
  /** The global --fields with this command's field names as its values, when the command declares its records. */
  fields?: OptionSpec;
}

export interface CompletionSpec {
  bin: string;
  /** The root's options, valid on every command before or after its name (contract §2.1). */
  globals: OptionSpec[];
  root: CommandSpec;
}

/**
 * Values for options and arguments that do not declare `.choices()`, keyed by
 * command path and flag (or `<argument>`): only these, so that an unrelated
 * option of the same name elsewhere gets nothing wrong.
 */
const HINTS: Record<string, ValueSource> = {
  'subscriptions list --status': { kind: 'words', words: SUBSCRIPTION_STATUSES, commaList: true },
  'subscriptions list --access': { kind: 'words', words: ['active', 'inactive'] },
  'auth switch <name>': { kind: 'helper', helper: 'profiles' },
  'undo <audit_id>': { kind: 'helper', helper: 'undo' },
};

/**
 * Values known by their name wherever they are taken: every `<product>` and
 * `<course>`, option or argument, gets the ids with titles from the last whole
 * list a run read (config/catalog-cache.ts), offline; every `<file>`, files.
 */
const BY_NAME: Record<string, ValueSource> = {
  product: { kind: 'helper', helper: 'products' },
  course: { kind: 'helper', helper: 'courses' },
  file: { kind: 'files' },
};

/** Profile names wherever they are taken: one (`--profile`), or a comma list (`--profiles a,b`, issue 38). */
const PROFILE_OPTIONS: Record<string, ValueSource> = {
  '--profile': { kind: 'helper', helper: 'profiles' },
  '--profiles': { kind: 'helper', helper: 'profiles', commaList: true },
};

/** Reads the spec from a program; `program` is the root command. */
export function completionSpec(program: Command): CompletionSpec {
  const help = program.createHelp();
  const rootOptions = help.visibleOptions(program);
  // Root-only: the help and version options, which end the command line.
  const rootOnly = rootOptions.filter((option) => !program.options.includes(option) || option.long === '--version');
  const globals = rootOptions.filter((option) => !rootOnly.includes(option)).map((option) => optionSpec(option, []));
  const root = commandSpec(program, [], help, globals.find((option) => option.long === '--fields'));
  root.options = rootOnly.map((option) => optionSpec(option, []));
  return { bin: program.name(), globals, root };
}

/** The field names of a command's records (command-kit's printsRecords), as --fields completes them. */
function fieldsSpec(command: Command, globalFields: OptionSpec | undefined): OptionSpec | undefined {
  const declared = recordFieldsOf(command);
  if (!declared || !globalFields?.value) return undefined;
  const words = typeof declared === 'string' ? schemaPaths(schemas[declared] as unknown as Parameters<typeof schemaPaths>[0]) : declared;
  return { ...globalFields, value: { name: globalFields.value.name, source: { kind: 'words', words, commaList: true } } };
}

function commandSpec(command: Command, path: string[], help: ReturnType<Command['createHelp']>, globalFields?: OptionSpec): CommandSpec {
  const visible = help.visibleCommands(command);
  // The implicit `help [command]` is not in command.commands; its argument is a sibling's name.
  const siblings = visible.filter((sub) => command.commands.includes(sub)).map((sub) => sub.name());
  const fields = fieldsSpec(command, globalFields);
  const commands = visible.map((sub) => {
    const spec = commandSpec(sub, [...path, sub.name()], help, globalFields);
    if (!command.commands.includes(sub)) {
      spec.args = spec.args.map((arg) => ({ ...arg, source: { kind: 'words', words: siblings } }));
    }
    return spec;
  });
  return {
    path,
    name: command.name(),
    aliases: command.aliases(),
    description: firstLine(command.summary() || command.description()),
    options: path.length === 0 ? [] : help.visibleOptions(command).map((option) => optionSpec(option, path)),
    commands,
    args: command.registeredArguments.map((arg) => argumentSpec(arg, path)),
    ...(fields ? { fields } : {}),
  };
}

function optionSpec(option: Option, path: string[]): OptionSpec {
  const spec: OptionSpec = {
    description: firstLine(option.description),
    repeatable: option.variadic || Array.isArray(option.defaultValue),
    terminal: option.long === '--help' || option.long === '--version',
  };
  if (option.short) spec.short = option.short;
  if (option.long) spec.long = option.long;
  if (option.required || option.optional) {
    const name = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1]?.replace(/\.\.\.$/, '') ?? 'value';
    const source = option.argChoices
      ? { kind: 'words' as const, words: option.argChoices }
      : HINTS[[...path, option.long ?? option.short].join(' ')]
        ?? PROFILE_OPTIONS[option.long ?? '']
        ?? BY_NAME[name];
    spec.value = source ? { name, source } : { name };
  }
  return spec;
}

function argumentSpec(arg: Argument, path: string[]): ArgumentSpec {
  const name = arg.name();
  const spec: ArgumentSpec = { name, required: arg.required, variadic: arg.variadic };
  const source = arg.argChoices
    ? { kind: 'words' as const, words: arg.argChoices }
    : HINTS[[...path, `<${name}>`].join(' ')] ?? BY_NAME[name];
  if (source) spec.source = source;
  return spec;
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

/** Every command of the tree, depth first, the root first. */
export function allCommands(spec: CompletionSpec): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (command: CommandSpec) => {
    out.push(command);
    command.commands.forEach(visit);
  };
  visit(spec.root);
  return out;
}

/** The flags of an option, short first: ['-o', '--output']. */
export function flagsOf(option: OptionSpec): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}

/** The words a script may put in a fixed list unquoted; anything else is a bug in a command declaration. */
export function checkWord(word: string): string {
  if (!/^[A-Za-z0-9_.,:@+=/-]+$/.test(word)) throw new Error(`cannot complete ${JSON.stringify(word)}: not a plain word`);
  return word;
}

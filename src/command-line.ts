/**
 * Builds a fresh commander program per run (no module-level singleton, so
 * in-process tests never share state) from the commands it is given: the
 * whole program (program.ts), or `members mcp` alone (entry/mcp-main.ts, a
 * bundle of its own). Command modules only declare flags and help; their
 * actions import the code they need when they run.
 */
import type { EventEmitter } from 'node:events';
import { extname } from 'node:path';
import { Command, Help, Option } from 'commander';
import { CSV_DIALECTS, OUTPUT_FORMATS, type CsvDialect, type GlobalOptions, type Io, type OutputFormat } from './lib/io.js';
import { Session, type SessionDeps, type SessionFactory } from './session/session.js';
import { parseDuration, parseInteger } from './lib/values.js';
import { UsageError } from './lib/errors.js';
import { HELP_SECTIONS, type Registration, type Runner } from './commands/shared/command-kit.js';
import { versionText } from './lib/version.js';

export interface CommandLineDeps extends SessionDeps {
  /** The commands the program has, each listed in its section of the root help. */
  commands: readonly Registration[];
  session?: SessionFactory;
}

export function buildCommandLine(deps: CommandLineDeps): { program: Command; sessions: Session[] } {
  const sessions: Session[] = [];
  const program = new Command('members')
    .description('Administer the students, products and subscriptions of a membership platform.')
    .version(versionText().trimEnd(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .configureOutput({
      writeOut: (text) => void deps.io.stdout.write(text),
      writeErr: (text) => void deps.io.stderr.write(text),
      // The error boundary prints errors, in text or JSON.
      outputError: () => undefined,
      getOutHelpWidth: () => deps.io.stdout.columns ?? 80,
      getErrHelpWidth: () => deps.io.stderr.columns ?? 80,
    })
    .exitOverride();
  addGlobalOptions(program);
  // A command's --help shows its own arguments, options and commands; the global options follow in a few lines (gh's INHERITED FLAGS).
  // A blank line before them, which a command's own notes and examples end with already.
  program.addHelpText('afterAll', ({ command }) => (command === program ? ''
    : `${hasTextAfterHelp(command) ? '' : '\n'}${inheritedOptions(program, deps.io.stdout.columns ?? 80)}`));

  const runner: Runner = {
    session(command) {
      const raw = command.optsWithGlobals();
      const options = globalOptions(raw, deps.io.env);
      // A workbook is bytes a terminal would show as garbage (and could be driven by): refused before anything is sent.
      if (options.output === 'xlsx' && !options.out && deps.io.stdout.isTTY) {
        throw new UsageError('-o xlsx writes a workbook, not text for a terminal: add --out FILE.xlsx, or redirect stdout to a file');
      }
      // `members each` runs its rows in programs of their own (commands/each/row-session.ts).
      const newProgram = (io: Io, session: SessionFactory) => buildCommandLine({ io, dispatcher: deps.dispatcher, commands: deps.commands, session }).program;
      const session = deps.session?.(options, raw) ?? new Session(options, { ...deps, newProgram });
      sessions.push(session);
      return session;
    },
  };
  for (const { section, register } of deps.commands) {
    // Every command the module adds is listed in its section of `members --help`.
    program.commandsGroup(section);
    register(program, runner);
  }
  // `--fields` with no list names the command's fields, before anything is sent (gh's `--json` does the same).
  program.hook('preAction', async (_program, action) => {
    if (action.optsWithGlobals().fields !== true) return;
    const { listFieldsError } = await import('./commands/shared/field-names.js');
    const path: string[] = [];
    for (let command: Command | null = action; command; command = command.parent) path.unshift(command.name());
    throw await listFieldsError(action, path.join(' '));
  });
  groupCommandsForHelp(program);
  return { program, sessions };
}

/** The bulk forms are options of `students` commands, so they get a text section after Everyday. */
const BULK_HELP: Array<[string, string]> = [
  ['students grant --file <file>', 'Grant products to the students of a CSV file (- for stdin)'],
  ['students revoke --file <file>', 'Revoke products from the students of a CSV file'],
  ['students import <file>', 'Create the students of a CSV file'],
];

/**
 * Lists the root's help groups (each command's section, set where it is
 * registered) in the order of HELP_SECTIONS, with the bulk forms after Everyday.
 */
export function groupCommandsForHelp(program: Command): void {
  const bulk = program.commands.some((command) => command.name() === 'students') ? BULK_HELP : [];
  const sections: readonly string[] = HELP_SECTIONS;
  const rank = (heading: string) => (sections.includes(heading) ? sections.indexOf(heading) : sections.length);
  const base = new Help();
  // Root only: the subcommands copied the help configuration when they were made.
  program.configureHelp({
    // Sections in a fixed order, whatever the order of registration (the sort is stable).
    groupItems: <T extends Command | Option>(unsorted: T[], visible: T[], groupOf: (item: T) => string) =>
      new Map([...base.groupItems(unsorted, visible, groupOf)].sort(([a], [b]) => rank(a) - rank(b))),
    padWidth: (cmd, helper) => Math.max(base.padWidth(cmd, helper), ...bulk.map(([term]) => term.length)),
    formatItemList: (heading, items, helper) => {
      const list = base.formatItemList(heading, items, helper);
      if (heading !== 'Everyday:' || bulk.length === 0) return list;
      const width = helper.padWidth(program, helper);
      return [...list, helper.styleTitle('Bulk:'), ...bulk.map(([term, text]) => helper.formatItem(term, width, text, helper)), ''];
    },
  });
}

/** Whether `addHelpText('after', …)` gave the command notes or examples (commander prints them from an `afterHelp` event). */
function hasTextAfterHelp(command: Command): boolean {
  return (command as unknown as EventEmitter).listenerCount('afterHelp') > 0;
}

/** The global options as one wrapped list of their flags, after a subcommand's help: `members --help` describes each. */
function inheritedOptions(program: Command, width: number): string {
  const flags = program.options.filter((option) => !option.hidden).map((option) => option.flags);
  const lines: string[] = [];
  let line = ' ';
  for (const flag of flags) {
    const item = ` ${flag}${flag === flags.at(-1) ? '' : ','}`;
    if (line.length + item.length > Math.max(width, 40) && line.trim()) {
      lines.push(line);
      line = ' ';
    }
    line += item;
  }
  lines.push(line);
  return `Global options (valid on every command; members --help describes them):\n${lines.join('\n')}`;
}

function addGlobalOptions(program: Command): void {
  program
    .option('-p, --profile <name>', 'profile to use (env MEMBERS_PROFILE)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table; csv with --csv-dialect, xlsx with --out FILE.xlsx)').choices(OUTPUT_FORMATS))
    .option('--json', 'same as -o json')
    .option('--fields [list]', 'comma-separated fields to keep, dot paths allowed (id,email,product.title); alone, lists them')
    .option('--no-header', 'no header row in table, csv and xlsx')
    .option('--csv-raw', 'write csv cells untouched (no spreadsheet formula guard)')
    .addOption(new Option('--csv-dialect <name>', 'csv for scripts, or for Excel/LibreOffice (env MEMBERS_CSV_DIALECT)').choices(CSV_DIALECTS))
    .option('--no-color', 'no colour')
    .option('-q, --quiet', 'no spinner, progress, notices or warnings')
    .option('-v, --verbose', 'log every HTTP exchange on stderr, secrets redacted')
    .option('--base-url <url>', 'API base URL (env MEMBERS_BASE_URL)')
    .option('--timeout <duration>', 'per-request timeout', '30s')
    .option('--retries <n>', 'retry budget per request', '3')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-pager', 'never page long output at a terminal (env MEMBERS_PAGER, PAGER; default less -FRX)')
    .option('--out <file>', 'write the result to FILE (atomically, mode 0600); - is stdout; without -o, .csv .json .ndjson .xlsx choose the format')
    .option('--summary <file>', 'when the command ends, whatever its exit code, write one JSON object there: command, profile, run id, exit code, duration, counts (for cron)')
    .option('--notify <url>', 'POST the summary to a webhook (Slack, Google Chat, Teams by host; JSON elsewhere) when a person is needed: exit 2, or 7 and above')
    .option('--notify-always', 'with --notify: whatever the exit code')
    .option('--ping <url>', 'tell a monitor, healthchecks style: URL/start at the start, URL on exit 0, URL/fail otherwise (the exit code as the body)');
}

/** Validates and normalises the global options; a bad value is a usage error. */
export function globalOptions(raw: Record<string, unknown>, env: Record<string, string | undefined> = {}): GlobalOptions {
  const fields = typeof raw.fields === 'string'
    ? raw.fields.split(',').map((f) => f.trim()).filter(Boolean)
    : undefined;
  if (fields && fields.length === 0) throw new UsageError('--fields needs at least one field name');
  return {
    profile: raw.profile as string | undefined,
    output: outputFormat(raw),
    fields,
    header: raw.header !== false,
    color: raw.color !== false,
    csvRaw: Boolean(raw.csvRaw),
    csvDialect: (raw.csvDialect as CsvDialect | undefined) ?? csvDialectFromEnv(env),
    quiet: Boolean(raw.quiet),
    verbose: Boolean(raw.verbose),
    baseUrl: raw.baseUrl as string | undefined,
    timeoutMs: parseDuration(String(raw.timeout), '--timeout') * 1000,
    retries: parseInteger(String(raw.retries), '--retries', { min: 0, max: 20 }),
    yes: Boolean(raw.yes),
    // `--out -` is stdout, as for curl and most tools.
    out: raw.out === '-' ? undefined : raw.out as string | undefined,
    pager: raw.pager !== false,
  };
}

/**
 * `--csv-dialect` alone means csv, `--out FILE.xlsx` alone xlsx; with another
 * format either is a mistake worth a word (a .xlsx file of text will not open),
 * as is -o xlsx into a file named for another format.
 */
function outputFormat(raw: Record<string, unknown>): OutputFormat {
  const named = raw.json ? 'json' : (raw.output as OutputFormat | undefined);
  if (raw.csvDialect !== undefined && named && named !== 'csv') throw new UsageError(`--csv-dialect applies to csv output, not ${named}: drop it or use -o csv`);
  const output = raw.csvDialect === undefined ? named : 'csv';
  const extension = typeof raw.out === 'string' ? extname(raw.out).slice(1).toLowerCase() : '';
  const workbook = extension === 'xlsx';
  if (workbook && output && output !== 'xlsx') throw new UsageError(`--out ${raw.out as string} names a workbook, but the output is ${output}: drop -o (the .xlsx name chooses xlsx), or name the file .${output}`);
  // A workbook under another name opens as garbage (a .csv of zip bytes); a name without an extension is the user's call.
  if (output === 'xlsx' && extension !== '' && !workbook) {
    const named = (OUTPUT_FORMATS as readonly string[]).includes(extension) ? `, or use -o ${extension}` : '';
    throw new UsageError(`-o xlsx writes a workbook, but --out ${raw.out as string} is named .${extension}: name the file .xlsx${named}`);
  }
  // Without -o, a file named .csv, .json or .ndjson is written in that format (a text table would not open as one).
  const byExtension = (['csv', 'json', 'ndjson', 'xlsx'] as const).find((format) => format === extension);
  return output ?? byExtension ?? 'table';
}

/** MEMBERS_CSV_DIALECT sets a desk's spreadsheet once; it applies only where the output is csv. */
function csvDialectFromEnv(env: Record<string, string | undefined>): CsvDialect {
  const value = env.MEMBERS_CSV_DIALECT;
  if (!value) return 'rfc4180';
  if ((CSV_DIALECTS as readonly string[]).includes(value)) return value as CsvDialect;
  throw new UsageError(`MEMBERS_CSV_DIALECT must be one of ${CSV_DIALECTS.join(', ')} (it is '${value}')`);
}

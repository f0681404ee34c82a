/**
 * The manual page, man/members.1, written by scripts/build.mjs from the program itself, so that it cannot drift
 * from the commands: every command with its description, arguments, options and the text its --help ends with,
 * the global options, and ENVIRONMENT and EXIT STATUS as `members help environment` and `members help exit-codes`
 * print them.
 */
import type { EventEmitter } from 'node:events';
import type { Argument, Command, Help, Option } from 'commander';
import { HELP_TOPICS } from '../src/commands/help/topics.js';
import { configDir } from '../src/config/paths.js';
import { buildProgram } from '../src/program.js';

export interface ManPageMeta {
  version: string;
  /** YYYY-MM-DD, for the page's footer. */
  date: string;
  homepage: string;
}

/** The page for the real program (the build calls this). */
export function membersManPage(meta: ManPageMeta): string {
  const quiet = { write: () => true, isTTY: false, columns: undefined };
  const { program } = buildProgram({
    io: { stdout: quiet, stderr: quiet, stdin: process.stdin, env: {}, cwd: '/', onInterrupt: () => () => undefined },
  });
  return manPage(program, meta);
}

/** The topics that have a section of their own; the others are named in SEE ALSO. */
const SECTION_TOPICS: Record<string, string> = { environment: 'ENVIRONMENT', 'exit-codes': 'EXIT STATUS' };

export function manPage(program: Command, meta: ManPageMeta): string {
  const help = program.createHelp();
  const name = program.name();
  const topicSections = Object.entries(SECTION_TOPICS).flatMap(([topic, heading]) => {
    const text = HELP_TOPICS[topic]?.text;
    return text ? [`.SH ${heading}`, ...helpText(text, { terms: true })] : [];
  });
  const otherTopics = Object.entries(HELP_TOPICS).filter(([topic]) => !(topic in SECTION_TOPICS));
  const lines = [
    `.TH ${name.toUpperCase()} 1 "${meta.date}" "${escape(`${name} ${meta.version}`)}" "User Commands"`,
    // Left-aligned, unhyphenated: option names and paths stay whole at any width.
    '.ad l',
    '.nh',
    '.SH NAME',
    `${escape(name)} \\- ${escape(sentence(program.description()))}`,
    '.SH SYNOPSIS',
    `.B ${escape(name)}`,
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    ...helpText(program.description(), { terms: false }),
    '.PP',
    `Every command prints its own help with \\fB\\-\\-help\\fR; \\fB${escape(name)} help\\fR lists them by task.`,
    '.SH COMMANDS',
    ...commandsOf(program, help).flatMap((command) => commandSection(command, help)),
    '.SH GLOBAL OPTIONS',
    '.PP',
    'Valid on every command, before or after its name.',
    ...help.visibleOptions(program).flatMap((option) => optionItem(option, help)),
    ...topicSections,
    '.SH FILES',
    '.PP',
    `In the configuration directory: \\fBMEMBERS_CONFIG_DIR\\fR, else \\fI${escape(configDir({}, 'linux', '~'))}\\fR`,
    `(\\fI$XDG_CONFIG_HOME/${escape(name)}\\fR when set; macOS \\fI${escape(configDir({}, 'darwin', '~'))}\\fR,`,
    `Windows \\fI${escape(configDir({ APPDATA: '%APPDATA%' }, 'win32', '~'))}\\fR), a directory of mode 0700:`,
    ...item('config.json', 'the profiles, and their tokens where no OS keychain keeps them (mode 0600)'),
    ...item('audit.jsonl', `every change made from this machine, which \`${name} history\` shows and \`${name} undo\` reverses`),
    ...item('catalog.json', 'the ids and titles of products and courses, per API, for shell completion (safe to delete)'),
    ...item(`$XDG_CACHE_HOME/${name}/`, 'a V8 code cache for a faster start (default ~/.cache; macOS ~/Library/Caches; safe to delete)'),
    '.SH SEE ALSO',
    ...otherTopics.flatMap(([topic, { summary }]) => item(`${name} help ${topic}`, summary)),
    ...item(`${name} completion bash|zsh|fish|powershell`, 'the shell completion scripts'),
    '.PP',
    `\\fBless\\fR(1), the default pager. Documentation: ${escape(meta.homepage)}`,
    '',
  ];
  return lines.join('\n');
}

/** The commands under `command`, depth first, without commander's implicit `help` subcommands. */
function commandsOf(command: Command, help: Help): Command[] {
  return help.visibleCommands(command)
    .filter((sub) => command.commands.includes(sub))
    .flatMap((sub) => [sub, ...commandsOf(sub, help)]);
}

function commandSection(command: Command, help: Help): string[] {
  const path: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) path.unshift(at.name());
  const fullName = path.join(' ');
  // `-h, --help` is on every command: GLOBAL OPTIONS names it once.
  const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
  return [
    `.SS "${escape(fullName)}"`,
    '.PP',
    textLine(`\\fB${escape(fullName)}\\fR ${escape(command.usage())}`),
    ...helpText(help.commandDescription(command), { terms: false }),
    ...help.visibleArguments(command).flatMap((arg) => argumentItem(arg, help)),
    ...options.flatMap((option) => optionItem(option, help)),
    ...helpText(textAfterHelp(command), { terms: false }),
  ];
}

/**
 * What `addHelpText('after', …)` adds to a command's --help: notes and examples. Commander prints it from an
 * `afterHelp` event (a Command is an EventEmitter, which its types leave out).
 */
function textAfterHelp(command: Command): string {
  let text = '';
  (command as unknown as EventEmitter).emit('afterHelp', { error: false, command, write: (chunk: string) => void (text += chunk) });
  return text;
}

function optionItem(option: Option, help: Help): string[] {
  const term = help.optionTerm(option).replace(/(<[^>]+>|\[[^\]]+\])|([^<[]+)/g, (_match, value: string | undefined, flags: string | undefined) =>
    (value ? `\\fI${escape(value)}\\fR` : `\\fB${escape(flags ?? '')}\\fR`));
  return ['.TP', textLine(term), textLine(escape(help.optionDescription(option)))];
}

function argumentItem(arg: Argument, help: Help): string[] {
  return ['.TP', textLine(`\\fI${escape(help.argumentTerm(arg))}\\fR`), textLine(escape(help.argumentDescription(arg)))];
}

function item(term: string, description: string): string[] {
  return ['.TP', textLine(`\\fB${escape(term)}\\fR`), textLine(escape(description))];
}

/**
 * Help text as roff: unindented lines are paragraphs (a blank line starts the next); with `terms`, lines of
 * `  TERM  description` (two spaces before and after the term, continued on more indented lines) are a list, as
 * the help topics are laid out; other indented lines (examples) are kept as they are.
 */
function helpText(text: string, { terms }: { terms: boolean }): string[] {
  const out: string[] = [];
  let mode: 'none' | 'paragraph' | 'terms' | 'kept' = 'none';
  const end = () => {
    if (mode === 'kept') out.push('.fi', '.RE');
    mode = 'none';
  };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const indent = line.length - line.trimStart().length;
    const term = terms && indent === 2 ? /^ {2}(\S.*?) {2,}(\S.*)$/.exec(line) : null;
    if (line === '') {
      end();
    } else if (indent === 0) {
      if (mode !== 'paragraph') {
        end();
        out.push('.PP');
        mode = 'paragraph';
      }
      out.push(textLine(escape(line)));
    } else if (term) {
      end();
      out.push(...['.TP', textLine(`\\fB${escape(term[1] ?? '')}\\fR`), textLine(escape(term[2] ?? ''))]);
      mode = 'terms';
    } else if (mode === 'terms' && indent > 2) {
      out.push(textLine(escape(line.trim())));
    } else {
      if (mode !== 'kept') {
        end();
        out.push('.PP', '.RS 2', '.nf');
        mode = 'kept';
      }
      out.push(textLine(escape(line.slice(Math.min(indent, 2)))));
    }
  }
  end();
  return out;
}

/** A text line roff will not read as a request. */
function textLine(text: string): string {
  return /^[.']/.test(text) ? `\\&${text}` : text;
}

/**
 * Text for roff: a backslash printed as one, `-` as the ASCII hyphen-minus (so options and URLs copy as typed),
 * a place to break a line after `,`, `|` and `/` inside a word (id,email,product.title; bash|zsh; a URL), anything
 * outside ASCII as its Unicode escape (the page reads the same whatever the locale of the build).
 */
function escape(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/([,|/])(?=\S)/g, '$1\\:')
    .replace(/[^\x20-\x7e]/gu, (char) => `\\[u${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** NAME's one line: the description without its final period, starting in lower case. */
function sentence(text: string): string {
  const first = text.split('\n')[0]?.replace(/\.$/, '') ?? '';
  return first.charAt(0).toLowerCase() + first.slice(1);
}

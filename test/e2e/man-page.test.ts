/**
 * The manual page the build writes (man/members.1, scripts/man-page.ts), as `man` renders it: without a
 * warning at any usual width, with every command of the program, the global options, and ENVIRONMENT and
 * EXIT STATUS as the help topics list them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { HELP_TOPICS } from '../../src/commands/help/topics.js';
import { buildProgram } from '../../src/program.js';
import { fakeIo } from '../helpers/fake-io.js';

const PAGE = fileURLToPath(new URL('../../man/members.1', import.meta.url));

/** man-db's `man`; in CI (MEMBERS_REQUIRE_SHELLS=1, set by .ci/run, which installs it) its absence fails. */
function hasMan(): boolean {
  const found = spawnSync('man', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!found && process.env.MEMBERS_REQUIRE_SHELLS === '1') throw new Error('man is required (MEMBERS_REQUIRE_SHELLS=1): apt-get install man-db');
  return found;
}

/** `man -l` of the page at `width` columns: plain text (not a terminal), and what it warned. */
function render(width: number): { code: number | null; text: string; warnings: string } {
  const result = spawnSync('man', ['--warnings', '-l', PAGE], {
    encoding: 'utf8', env: { PATH: process.env.PATH, LANG: 'C.UTF-8', MANWIDTH: String(width) },
  });
  return { code: result.status, text: result.stdout, warnings: result.stderr };
}

/** Every command a user can type, as `members students grant`, without commander's implicit help subcommands. */
function commandPaths(command: Command, path: string[]): string[] {
  return command.createHelp().visibleCommands(command)
    .filter((sub) => command.commands.includes(sub))
    .flatMap((sub) => [[...path, sub.name()].join(' '), ...commandPaths(sub, [...path, sub.name()])]);
}

/** The text of the section HEADING (up to the next one). */
const section = (text: string, heading: string) => text.split(/^(?=[A-Z][A-Z ]+$)/m).find((part) => part.startsWith(`${heading}\n`)) ?? '';

describe.runIf(hasMan())('man/members.1', () => {
  it.each([60, 80, 120])('renders without a warning at %i columns', (width) => {
    const { code, warnings } = render(width);
    expect({ code, warnings }).toEqual({ code: 0, warnings: '' });
  });

  it('has every command, with its usage, description and options', () => {
    const { program } = buildProgram({ io: fakeIo().io });
    const { text } = render(200);
    const commands = section(text, 'COMMANDS');
    const paths = commandPaths(program, ['members']);
    expect(paths).toEqual(expect.arrayContaining(['members students grant', 'members auth login', 'members sync', 'members help']));
    for (const path of paths) expect(commands, path).toMatch(new RegExp(`^ {3}${path}\\n`, 'm'));
    expect(commands).toContain('members students grant [options] <student> <product>... | --file <file>');
    expect(commands).toContain('--renew');
    expect(commands).toContain('members students grant maria@example.com "Python Pro"');
    expect(commands).not.toMatch(/^ {3}members \S+ help\n/m);
  });

  it('has the global options, and ENVIRONMENT and EXIT STATUS as `members help` prints them', () => {
    const { program } = buildProgram({ io: fakeIo().io });
    const { text } = render(200);
    const globals = section(text, 'GLOBAL OPTIONS');
    for (const option of program.options) expect(globals).toContain(option.flags);
    const environment = section(text, 'ENVIRONMENT');
    const variables = [...(HELP_TOPICS.environment?.text ?? '').matchAll(/^ {2}(\S.*?) {2,}/gm)].map((match) => match[1] as string);
    expect(variables).toEqual(expect.arrayContaining(['MEMBERS_TOKEN', 'XDG_CACHE_HOME', 'NO_COLOR']));
    // A short name shares its line with the description (CI   no spinners…).
    for (const variable of variables) expect(environment).toMatch(new RegExp(`^ {7}${variable.replace(/[()]/g, '\\$&')}( {2}|$)`, 'm'));
    const exitStatus = section(text, 'EXIT STATUS');
    for (const code of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '130', '141']) expect(exitStatus).toMatch(new RegExp(`^ {7}${code}\\s`, 'm'));
    expect(section(text, 'FILES')).toContain('audit.jsonl');
    expect(section(text, 'SEE ALSO')).toContain('members help formatting');
  });

  it('is plain roff: no line roff would read as a request by mistake, nothing outside ASCII', () => {
    const page = readFileSync(PAGE, 'utf8');
    expect(page).toMatch(/^[\x20-\x7e\n]*$/);
    expect(page.split('\n').filter((line) => /^['.]/.test(line) && !/^\.(TH|SH|SS|PP|TP|RS|RE|nf|fi|ad|nh|B) ?/.test(line))).toEqual([]);
  });
});

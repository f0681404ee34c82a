/**
 * `members --help` lists the commands in sections (commander help groups):
 * Everyday, Bulk, Reports, Setup.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { groupCommandsForHelp } from '../../../src/command-line.js';
import { fakeIo } from '../../helpers/fake-io.js';
import { fixtureProgram } from '../../unit/completion/fixture.js';

describe('groupCommandsForHelp', () => {
  it('puts each command in its section, in a fixed order, with the bulk forms after Everyday', () => {
    const program = fixtureProgram();
    groupCommandsForHelp(program);
    expect(program.helpInformation()).toBe(`Usage: members [options] [command]

Administer a membership platform.

Options:
  -V, --version                  print the version
  -p, --profile <name>           profile to use
  -o, --output <format>          output format (choices: "table", "json", "ndjson", "csv", default:
                                 "table")
  --json                         same as -o json
  -q, --quiet                    no notices
  --out <file>                   write the result to FILE
  -h, --help                     show help for a command

Everyday:
  students|student               Look up and change students
  subscriptions                  List subscriptions

Bulk:
  students grant --file <file>   Grant products to the students of a CSV file (- for stdin)
  students revoke --file <file>  Revoke products from the students of a CSV file
  students import <file>         Create the students of a CSV file

Reports:
  report                         Partner reports

Setup:
  api [options] <path>           Raw request
  auth                           Profiles and tokens
  completion <shell>             Print the shell completion script for bash, zsh, fish or PowerShell
  help [command]                 show help for a command
`);
  });

  it("leaves a subcommand's help alone", () => {
    const program = fixtureProgram();
    groupCommandsForHelp(program);
    const students = program.commands.find((command) => command.name() === 'students');
    expect(students?.helpInformation()).toContain('\nCommands:\n  list [options]');
    expect(students?.helpInformation()).not.toContain('Bulk:');
  });
});

/** Section headings of a help text, and the command names listed under each. */
function sections(help: string): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) out.push([line, []]);
    else if (/^ {2}\S/.test(line)) out.at(-1)?.[1].push(line.trim().split(/[\s|]/)[0] ?? '');
  }
  return out;
}

describe('members --help', () => {
  async function help(args: string[]) {
    const fake = fakeIo({ columns: 100 });
    const code = await main(args, fake.io);
    return { code, stdout: fake.stdout(), stderr: fake.stderr() };
  }

  it('lists every command under one of the sections, in order', async () => {
    const { code, stdout, stderr } = await help(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    // After the commands: the help topics and examples, as gh's root help ends.
    expect(sections(stdout).map(([heading]) => heading).slice(-2)).toEqual(['Help topics:', 'Examples:']);
    const found = sections(stdout).filter(([heading]) => !['Options:', 'Help topics:', 'Examples:'].includes(heading));
    const headings = found.map(([heading]) => heading);
    // A command added outside a registration would land in "Commands:" (src/program.ts sets each registration's section).
    expect(headings).toEqual(['Everyday:', 'Bulk:', 'Reports:', 'Setup:'].filter((h) => headings.includes(h)));
    const groups = Object.fromEntries(found);
    // The contract's commands, where registered, in their sections; others may be in any section.
    const placed: Record<string, string[]> = {
      'Everyday:': ['students', 'scores', 'magic-link', 'products', 'subscriptions', 'courses'],
      'Reports:': ['report', 'history'],
      'Setup:': ['auth', 'sandbox', 'completion', 'api', 'help'],
    };
    const listed = found.flatMap(([, names]) => names);
    for (const [heading, names] of Object.entries(placed)) {
      expect(groups[heading] ?? []).toEqual(expect.arrayContaining(names.filter((name) => listed.includes(name))));
    }
    expect(groups['Setup:']).toEqual(expect.arrayContaining(['auth', 'api', 'sandbox', 'completion', 'help']));
    // Column widths depend on the other commands: compare with runs of spaces collapsed.
    const bulk = stdout.split('\n\n').find((section) => section.startsWith('Bulk:\n'));
    expect(bulk?.replace(/ {2,}/g, '  ')).toBe('Bulk:\n'
      + '  students grant --file <file>  Grant products to the students of a CSV file (- for stdin)\n'
      + '  students revoke --file <file>  Revoke products from the students of a CSV file\n'
      + '  students import <file>  Create the students of a CSV file');
    expect(stdout).not.toContain('__complete-profiles');
  });

  it('prints the same for `members help`', async () => {
    const [flag, command] = await Promise.all([help(['--help']), help(['help'])]);
    expect(command.stdout).toBe(flag.stdout);
  });
});

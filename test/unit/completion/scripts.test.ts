/**
 * The generated scripts, run by the real shells against a contract-shaped
 * fixture program: exact candidates for partial command lines.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Argument } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../../src/commands/completion/actions.js';
import { completionSpec } from '../../../src/completion/spec.js';
import { fixtureProgram } from './fixture.js';
import { bashComplete, bashCompopt, bashPieces, fakeMembersDir, fishComplete, hasShell, zshComplete } from './shells.js';

let dir: string;
let files: { bash: string; zsh: string; fish: string };
let fakeBin: ReturnType<typeof fakeMembersDir>;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-completion-'));
  const program = fixtureProgram();
  files = { bash: join(dir, 'members.bash'), zsh: join(dir, '_members'), fish: join(dir, 'members.fish') };
  for (const shell of ['bash', 'zsh', 'fish'] as const) writeFileSync(files[shell], completionScript(program, shell));
  // Profile names come from `members __complete-profiles`; this one answers nothing else.
  fakeBin = fakeMembersDir('[ "$1" = __complete-profiles ] && printf "production\\nstaging\\n"');
  env = { PATH: `${fakeBin.dir}:${process.env.PATH}` };
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'grants.csv'), '');
  writeFileSync(join(dir, 'data', 'new.csv'), '');
  writeFileSync(join(dir, 'data', 'at@home:new.csv'), '');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  fakeBin?.cleanup();
});

const GLOBAL_LONG = ['--profile', '--output', '--json', '--quiet', '--out'];

describe('the spec read from the program', () => {
  it('keeps hidden commands out and sees aliases, choices and the help command', () => {
    const spec = completionSpec(fixtureProgram());
    expect(spec.root.commands.map((command) => command.name))
      .toEqual(['students', 'subscriptions', 'api', 'auth', 'report', 'completion', 'help']);
    expect(spec.root.commands[0]?.aliases).toEqual(['student']);
    expect(spec.globals.map((option) => option.long)).toEqual(GLOBAL_LONG);
    expect(spec.root.options.map((option) => option.long)).toEqual(['--version', '--help']);
    const completion = spec.root.commands.find((command) => command.name === 'completion');
    expect(completion?.args).toEqual([{ name: 'shell', required: true, variadic: false, source: { kind: 'words', words: ['bash', 'zsh', 'fish', 'powershell'] } }]);
  });

  it('refuses a value no script could hold unquoted', () => {
    const program = fixtureProgram();
    program.command('odd').addArgument(new Argument('<x>').choices(['two words']));
    expect(() => completionScript(program, 'bash')).toThrow('cannot complete "two words": not a plain word');
  });
});

describe('bash', () => {
  const complete = (...words: string[]) => bashComplete(files.bash, words, env);

  it('completes command names, by prefix and after an alias', () => {
    expect(complete('members', 'stu')).toEqual(['students']);
    expect(complete('members', 's')).toEqual(['students', 'subscriptions']);
    expect(complete('members', 'students', '')).toEqual(['list', 'get', 'grant', 'import', 'help']);
    expect(complete('members', 'student', 'g')).toEqual(['get', 'grant']);
    expect(complete('members', '')).toEqual(['students', 'subscriptions', 'api', 'auth', 'report', 'completion', 'help']);
  });

  it("offers a command's own options, then the global ones", () => {
    expect(complete('members', 'students', 'get', '--')).toEqual(['--help', ...GLOBAL_LONG]);
    expect(complete('members', 'students', 'list', '--')).toEqual(['--page', '--all', '--help', ...GLOBAL_LONG]);
    expect(complete('members', '--')).toEqual(['--version', '--help', ...GLOBAL_LONG]);
    expect(complete('members', 'api', '-')).toEqual(['-X', '--method', '-f', '--field', '-h', '--help', '-p', '--profile', '-o', '--output', '--json', '-q', '--quiet', '--out']);
  });

  it('completes fixed values of options: choices, hints, comma lists', () => {
    expect(complete('members', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('members', 'students', 'list', '--output', 'n')).toEqual(['ndjson']);
    expect(complete('members', 'subscriptions', 'list', '--access', '')).toEqual(['active', 'inactive']);
    expect(complete('members', 'api', '/x', '-X', '')).toEqual(['GET', 'POST']);
    expect(complete('members', 'subscriptions', 'list', '--status', '')).toEqual(['active', 'inactive', 'refunded', 'chargeback', 'canceled']);
    expect(complete('members', 'subscriptions', 'list', '--status', 'canceled,re')).toEqual(['canceled,refunded']);
    expect(complete('members', 'subscriptions', 'list', '--status', 'canceled,')).toEqual(['canceled,active', 'canceled,inactive', 'canceled,refunded', 'canceled,chargeback']);
    expect(complete('members', 'subscriptions', 'list', '--product', '')).toEqual([]);
  });

  it('adds no space after an item of a comma list, so the list can go on; other values get their space', () => {
    const options = (...words: string[]) => bashCompopt(files.bash, words, env);
    expect(options('members', 'subscriptions', 'list', '--status', 'canceled,re')).toEqual(['-o nospace']);
    expect(options('members', 'subscriptions', 'list', '--status', '')).toEqual(['-o nospace']);
    expect(options('members', 'subscriptions', 'list', '--access', '')).toEqual([]);
    expect(options('members', 'stu')).toEqual([]);
    expect(options('members', 'students', 'import', '')).toEqual(['-o filenames']);
  });

  it('completes --option=value, which bash splits at the =', () => {
    expect(complete('members', '--output=')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('members', '--output=c')).toEqual(['csv']);
    expect(complete('members', '--output=csv', 'stu')).toEqual(['students']);
    expect(complete('members', 'subscriptions', 'list', '--status=canceled,re')).toEqual(['canceled,refunded']);
    expect(complete('members', '--profile=ops:eu', 'students', 'g')).toEqual(['get', 'grant']);
  });

  it('reads words bash splits at its word-break characters (@ : =) as the words they are', () => {
    expect(bashPieces('--out=ana@example.com:1')).toEqual(['--out', '=', 'ana', '@', 'example.com', ':', '1']);
    expect(complete('members', '-p', 'ana@example.com', 'students', 'g')).toEqual(['get', 'grant']);
    expect(complete('members', '--out=ref:ABC@x', 'students', 'help', 'i')).toEqual(['import']);
    expect(complete('members', '--profile', 'ops:eu', 'auth', 'switch', 'st')).toEqual(['staging']);
    // What readline replaces is the text after the last break character: candidates lose what comes before it.
    expect(complete('members', 'students', 'import', join(dir, 'data', 'at@home:n'))).toEqual(['new.csv']);
    expect(complete('members', 'students', 'import', join(dir, 'data', 'at@'))).toEqual(['home:new.csv']);
  });

  it('skips option values while finding the command', () => {
    expect(complete('members', '-p', 'students', 'stu')).toEqual(['students']);
    expect(complete('members', '-o', 'json', 'students', 'list', '--page', '2', '--a')).toEqual(['--all']);
    expect(complete('members', '--json', 'students', 'g')).toEqual(['get', 'grant']);
  });

  it('completes positional arguments: choices, command names for help, files', () => {
    expect(complete('members', 'completion', '')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    expect(complete('members', 'completion', 'z')).toEqual(['zsh']);
    expect(complete('members', 'completion', 'zsh', '')).toEqual([]);
    expect(complete('members', 'help', 'sub')).toEqual(['subscriptions']);
    expect(complete('members', 'students', 'help', 'i')).toEqual(['import']);
    expect(complete('members', 'students', 'get', '')).toEqual([]);
    expect(complete('members', 'students', 'import', join(dir, 'data', 'n'))).toEqual([join(dir, 'data', 'new.csv')]);
    expect(complete('members', 'students', 'import', 'a.csv', join(dir, 'data', 'gr'))).toEqual([join(dir, 'data', 'grants.csv')]);
    expect(complete('members', 'students', 'grant', '--file', join(dir, 'data', 'gr'))).toEqual([join(dir, 'data', 'grants.csv')]);
  });

  it('treats words after -- as arguments', () => {
    expect(complete('members', 'completion', '--', '--')).toEqual([]);
  });

  it('asks `members __complete-profiles` for profile names', () => {
    expect(complete('members', '-p', '')).toEqual(['production', 'staging']);
    expect(complete('members', 'students', 'list', '--profile', 'st')).toEqual(['staging']);
    expect(complete('members', 'auth', 'switch', 'p')).toEqual(['production']);
  });

  it('offers no profile, and prints nothing, when members fails or is missing', () => {
    const failing = fakeMembersDir('echo "error: boom" >&2; exit 3');
    try {
      expect(bashComplete(files.bash, ['members', '-p', ''], { PATH: `${failing.dir}:/usr/bin:/bin` })).toEqual([]);
    } finally {
      failing.cleanup();
    }
    expect(bashComplete(files.bash, ['members', '-p', ''], { PATH: '/usr/bin:/bin' })).toEqual([]);
  });
});

describe.runIf(hasShell('zsh'))('zsh', () => {
  const complete = (line: string) => zshComplete(files.zsh, line, env);

  it('completes commands, options and values', () => {
    expect(complete('members stu')).toEqual(['students']);
    expect(complete('members students ')).toEqual(['list', 'get', 'grant', 'import', 'help']);
    expect(complete('members student g')).toEqual(['get', 'grant']);
    expect(complete('members students get --').sort()).toEqual(['--help', ...GLOBAL_LONG].sort());
    expect(complete('members -o ')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('members subscriptions list --access ')).toEqual(['active', 'inactive']);
    expect(complete('members subscriptions list --status canceled,')).toEqual(['canceled,active', 'canceled,inactive', 'canceled,refunded', 'canceled,chargeback']);
    expect(complete('members completion ')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
    expect(complete('members -p ')).toEqual(['production', 'staging']);
    expect(complete('members auth switch ')).toEqual(['production', 'staging']);
  });

  it("a global flag typed after the command name does not hide the command's own options", () => {
    expect(complete('members subscriptions list -q --acc')).toEqual(['--access']);
    expect(complete('members subscriptions list --quiet --acc')).toEqual(['--access']);
  });
});

describe.runIf(hasShell('fish'))('fish', () => {
  const complete = (line: string) => fishComplete(files.fish, line, env);

  it('completes commands, options and values', () => {
    expect(complete('members stu')).toEqual(['students']);
    expect(complete('members students ')).toEqual(['get', 'grant', 'help', 'import', 'list']);
    expect(complete('members student g')).toEqual(['get', 'grant']);
    expect(complete('members students get --')).toEqual(['--help', '--json', '--out', '--output', '--profile', '--quiet']);
    expect(complete('members -o ')).toEqual(['csv', 'json', 'ndjson', 'table']);
    expect(complete('members subscriptions list --access ')).toEqual(['active', 'inactive']);
    expect(complete('members subscriptions list --status canceled,')).toEqual(['canceled,active', 'canceled,chargeback', 'canceled,inactive', 'canceled,refunded']);
    expect(complete('members completion ')).toEqual(['bash', 'fish', 'powershell', 'zsh']);
    expect(complete('members -p ')).toEqual(['production', 'staging']);
    expect(complete('members auth switch ')).toEqual(['production', 'staging']);
    expect(complete('members --json students list --page 2 --a')).toEqual(['--all']);
  });
});

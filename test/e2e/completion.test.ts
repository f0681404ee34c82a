/**
 * The committed completion scripts, run by the real shells against the real
 * command tree and the built binary (profile names come from it).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import { fakeIo } from '../helpers/fake-io.js';
import { bashComplete, bashCompopt, fakeMembersDir, fishComplete, hasShell, zshComplete } from '../unit/completion/shells.js';
import { BIN, run, tempDir } from './harness.js';

const script = (file: string) => fileURLToPath(new URL(`../../completions/${file}`, import.meta.url));
const BASH = script('members.bash');

const GLOBAL_LONG = [
  '--profile', '--output', '--json', '--fields', '--no-header', '--csv-raw', '--csv-dialect', '--no-color',
  '--quiet', '--verbose', '--base-url', '--timeout', '--retries', '--yes', '--no-pager', '--out', '--summary', '--notify', '--notify-always', '--ping',
];

let configDir: string;
let bin: ReturnType<typeof fakeMembersDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  configDir = tempDir('members-completion-e2e-');
  for (const profile of ['staging', 'production']) {
    const login = await run(['auth', 'login', '--profile', profile, '--base-url', `https://${profile}.example.com`, '--no-verify'], {
      env: { MEMBERS_CONFIG_DIR: configDir, MEMBERS_TOKEN: `tok_${profile.toUpperCase()}_SENTINEL` },
    });
    expect(login.code, login.stderr).toBe(0);
  }
  // The audit log `undo <Tab>` offers from: changes undo can reverse, newest first; a torn line is skipped.
  writeFileSync(join(configDir, 'audit.jsonl'), [
    { id: 'mabc0001-000000000001', time: '2026-11-20T10:00:00.000Z', command: 'students grant', action: 'grant', result: 'granted', student: 'ana@example.com', product_id: 'p1' },
    { id: 'mabc0002-000000000002', time: '2026-11-21T10:00:00.000Z', command: 'magic-link', action: 'magic-link', result: 'created', student: 'ana@example.com' },
    { id: 'mabc0003-000000000003', time: '2026-11-22T10:00:00.000Z', command: 'students revoke', action: 'revoke', result: 'revoked', student: 'bia@example.com', product_id: 'p2' },
  ].map((record) => JSON.stringify(record)).join('\n') + '\n{"id": "torn\n', { mode: 0o600 });
  // `members` on PATH, as an installed binary would be.
  bin = fakeMembersDir(`exec "${process.execPath}" "${BIN}" "$@"`);
  env = { PATH: `${bin.dir}:${process.env.PATH}`, MEMBERS_CONFIG_DIR: configDir };
});

afterAll(() => {
  rmSync(configDir, { recursive: true, force: true });
  bin?.cleanup();
});

/** The visible subcommands of a top-level command, read from the real program. */
function subcommands(name: string): string[] {
  const { program } = buildProgram({ io: fakeIo().io });
  const command = program.commands.find((c) => c.name() === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.createHelp().visibleCommands(command).map((c) => c.name());
}

describe('completions/members.bash', () => {
  const complete = (...words: string[]) => bashComplete(BASH, words, env);

  it('completes command names', () => {
    expect(complete('members', 'stu')).toEqual(['students']);
    expect(complete('members', 'students', '')).toEqual(subcommands('students'));
    expect(complete('members', 'students', '')).toEqual(expect.arrayContaining(['list', 'get', 'create', 'delete', 'products', 'grant', 'revoke', 'help']));
  });

  it('completes options: the command\'s own, then the global ones', () => {
    expect(complete('members', 'students', 'get', '--')).toEqual(['--profiles', '--all-profiles', '--help', ...GLOBAL_LONG]);
  });

  it('completes fixed values', () => {
    expect(complete('members', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv', 'xlsx']);
    expect(complete('members', 'report', 'engaged-courses', '--csv-dialect', 'ex')).toEqual(['excel', 'excel-br']);
  });

  it('completes --fields with the names of the command\'s own fields, item after item', () => {
    expect(complete('members', 'students', 'list', '--fields', 'id,em')).toEqual(['id,email']);
    // No space after an item: the list goes on with a comma.
    expect(bashCompopt(BASH, ['members', 'students', 'list', '--fields', 'id,em'], env)).toEqual(['-o nospace']);
    expect(complete('members', 'subscriptions', 'list', '--fields', 'product.t')).toEqual(['product.title']);
    expect(complete('members', 'report', 'engaged-courses', '--fields', 'course_c')).toEqual(['course_completion_percent']);
    expect(complete('members', 'subscriptions', 'list', '--access', '')).toEqual(['active', 'inactive']);
    expect(complete('members', 'subscriptions', 'list', '--status', 'canceled,re')).toEqual(['canceled,refunded']);
    expect(complete('members', 'completion', '')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
  });

  it('offers the stored profiles after -p, from `members __complete-profiles`', () => {
    expect(complete('members', '-p', '')).toEqual(['production', 'staging']);
    expect(complete('members', 'students', 'list', '--profile', 'st')).toEqual(['staging']);
    expect(complete('members', 'auth', 'switch', '')).toEqual(['production', 'staging']);
  });

  it('offers the stored profiles after --profiles, item after item, leaving out those already given (issue 38)', () => {
    expect(complete('members', 'students', 'get', '--profiles', '')).toEqual(['production', 'staging']);
    expect(complete('members', 'products', 'list', '--profiles', 'production,')).toEqual(['production,staging']);
    expect(complete('members', 'report', 'engaged-courses', '--profiles', 'staging,pro')).toEqual(['staging,production']);
    expect(complete('members', 'products', 'list', '--profiles', 'staging,production,')).toEqual([]);
    // No space after an item: the list may go on with a comma.
    expect(bashCompopt(BASH, ['members', 'students', 'get', '--profiles', 'st'], env)).toEqual(['-o nospace']);
  });

  it('reads stacked short flags: the last one takes the next word as its value (-qo json), an attached value does not', () => {
    expect(complete('members', '-qo', 'json', 'stu')).toEqual(['students']);
    expect(complete('members', '-qo', '')).toEqual(['table', 'json', 'ndjson', 'csv', 'xlsx']);
    expect(complete('members', '-ojson', 'stu')).toEqual(['students']);
  });

  it('offers the audit ids undo can take, newest first, from the local log (offline)', () => {
    expect(complete('members', 'undo', '')).toEqual(['mabc0003-000000000003', 'mabc0001-000000000001']);
    expect(complete('members', 'undo', 'mabc0001')).toEqual(['mabc0001-000000000001']);
  });

  it('never shows a token', async () => {
    const { code, stdout, stderr } = await run(['__complete-profiles'], { env: { MEMBERS_CONFIG_DIR: configDir } });
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'production\nstaging\n', stderr: '' });
  });
});

describe.runIf(hasShell('zsh'))('completions/_members', () => {
  it('completes commands, values and profiles', () => {
    const complete = (line: string) => zshComplete(script('_members'), line, env);
    expect(complete('members stu')).toEqual(['students']);
    expect(complete('members -o ')).toEqual(['table', 'json', 'ndjson', 'csv', 'xlsx']);
    expect(complete('members -p ')).toEqual(['production', 'staging']);
    expect(complete('members --profile st')).toEqual(['staging']);
    expect(complete('members students get --profiles ')).toEqual(['production', 'staging']);
    // _sequence (the item after the last comma) calls the helper twice: one -J group, which drops the duplicate.
    expect([...new Set(complete('members products list --profiles production,'))]).toEqual(['production,staging']);
    expect(complete('members report engaged-courses --profiles=pro')).toEqual(['--profiles=production']);
    expect(complete('members subscriptions list --fields product.t')).toEqual(['product.title']);
    expect(complete('members undo ')).toEqual(['mabc0003-000000000003', 'mabc0001-000000000001']);
  });

  it("a global flag typed after the command name does not hide that command's own options", () => {
    const complete = (line: string) => zshComplete(script('_members'), line, env);
    expect(complete('members students list -q --w')).toEqual(['--with-subscriptions']);
    expect(complete('members students grant -y --fi').sort()).toEqual(['--fields', '--file']);
    expect(complete('members -qo json stu')).toEqual(['students']);
  });
});

describe.runIf(hasShell('fish'))('completions/members.fish', () => {
  it('completes commands, values and profiles', () => {
    const complete = (line: string) => fishComplete(script('members.fish'), line, env);
    expect(complete('members stu')).toEqual(['students']);
    expect(complete('members -o ')).toEqual(['csv', 'json', 'ndjson', 'table', 'xlsx']);
    expect(complete('members -p ')).toEqual(['production', 'staging']);
    expect(complete('members --profile st')).toEqual(['staging']);
    expect(complete('members students get --profiles ')).toEqual(['production', 'staging']);
    expect(complete('members products list --profiles production,')).toEqual(['production,staging']);
    expect(complete('members students list --fields id,em')).toEqual(['id,email']);
    expect(complete('members -qo json stu')).toEqual(['students']);
    expect(complete('members undo ').sort()).toEqual(['mabc0001-000000000001', 'mabc0003-000000000003']);
    expect(complete('members students list -q --w')).toEqual(['--with-subscriptions']);
    expect(complete('members students grant -y --fi')).toEqual(['--fields', '--file']);
  });
});

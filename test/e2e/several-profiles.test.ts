/**
 * Several schools at once (issue 38, item 3): two sandboxes, one of each
 * flavour, stored as two profiles, and a third profile whose server is
 * down. Every read command with --all-profiles prints one valid output with
 * a first column `profile`, names the profile that failed on stderr, and
 * exits with its code; changing commands have no such flag.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_SCRIPT, run, runInTerminal, startSandbox, tempDir, type SandboxProcess } from './harness.js';

let school: SandboxProcess;
let other: SandboxProcess;
let configDir: string;

const members = (args: string[], input?: string) => run(args, { env: { MEMBERS_CONFIG_DIR: configDir }, input });

async function login(profile: string, sandbox: { url: string; apiToken: string; developerToken: string; platformToken: string }): Promise<void> {
  const done = await run(['auth', 'login', '--profile', profile, '--base-url', sandbox.url, '--token-stdin', '--insecure-storage', '--no-verify'], {
    env: { MEMBERS_CONFIG_DIR: configDir, MEMBERS_DEVELOPER_TOKEN: sandbox.developerToken, MEMBERS_PLATFORM_TOKEN: sandbox.platformToken },
    input: `${sandbox.apiToken}\n`,
  });
  expect(done.code, done.stderr).toBe(0);
}

beforeAll(async () => {
  [school, other] = await Promise.all([
    startSandbox(['--students', '60', '--seed', '21']),
    startSandbox(['--students', '30', '--seed', '22', '--flavor', 'laravel']),
  ]);
  configDir = tempDir();
  await login('escola-a', school);
  await login('escola-b', other);
  // Port 9 (discard) refuses connections: a school whose server is down.
  await login('fora-do-ar', { url: 'http://127.0.0.1:9', apiToken: 'sbx_api_down', developerToken: 'dev_down', platformToken: 'plat_down' });
});

afterAll(async () => {
  await Promise.all([school?.stop(), other?.stop()]);
  rmSync(configDir, { recursive: true, force: true });
});

/** What one profile alone prints, as JSON. */
async function alone(profile: string, args: string[]): Promise<Array<Record<string, unknown>>> {
  const { code, stdout, stderr } = await members([...args, '--profile', profile, '-o', 'json', '-q']);
  expect(code, stderr).toBe(0);
  const parsed = JSON.parse(stdout) as Record<string, unknown> | Array<Record<string, unknown>>;
  return Array.isArray(parsed) ? parsed : [parsed];
}

const READS: Array<[string, string[]]> = [
  ['products list', ['products', 'list', '--all']],
  ['courses list', ['courses', 'list', '--all']],
  ['subscriptions list', ['subscriptions', 'list', '--all']],
  ['students search', ['students', 'search', '.com']],
  ['report engaged-courses', ['report', 'engaged-courses', '--top', '3']],
  ['report engaged-courses --group-by course', ['report', 'engaged-courses', '--top', '3', '--group-by', 'course']],
];

describe('--all-profiles, one of three schools down', () => {
  it.each(READS)('%s: one JSON array, each record with its profile first; the down school named on stderr; exit 6', async (_name, args) => {
    const { code, stdout, stderr } = await members([...args, '--all-profiles', '-o', 'json', '--retries', '0']);
    expect(code).toBe(6);
    const records = JSON.parse(stdout) as Array<Record<string, unknown>>;
    const expected = [
      ...(await alone('escola-a', args)).map((record) => ({ profile: 'escola-a', ...record })),
      ...(await alone('escola-b', args)).map((record) => ({ profile: 'escola-b', ...record })),
    ];
    expect(records).toEqual(expected);
    expect(records.every((record) => Object.keys(record)[0] === 'profile')).toBe(true);
    expect(stderr).toMatch(/^error: profile "fora-do-ar": cannot reach http:\/\/127\.0\.0\.1:9/m);
    expect(stderr).toContain('error: 1 of 3 profiles failed (fora-do-ar); the others were printed');
  });

  it.each(READS)('%s: one CSV with one header, profile first', async (_name, args) => {
    const { stdout } = await members([...args, '--profiles', 'escola-a,escola-b', '-o', 'csv']);
    const [header] = stdout.split('\n');
    expect(header?.startsWith('profile,')).toBe(true);
    expect(stdout.split('\n').filter((line) => line === header)).toHaveLength(1);
    const rows = parse(stdout, { columns: true }) as Array<{ profile: string }>;
    expect(new Set(rows.map((row) => row.profile))).toEqual(new Set(['escola-a', 'escola-b']));
  });

  it('courses accesses and students get|show: each school answers for its own student or course', async () => {
    const [course] = await alone('escola-a', ['courses', 'list']);
    const accesses = await members(['courses', 'accesses', course?.id as string, '--profiles', 'escola-a', '-o', 'json']);
    expect(accesses.code, accesses.stderr).toBe(0);
    expect((JSON.parse(accesses.stdout) as Array<{ profile: string }>).every((row) => row.profile === 'escola-a')).toBe(true);

    const [student] = await alone('escola-b', ['students', 'list']);
    for (const command of ['get', 'show']) {
      const { code, stdout, stderr } = await members(['students', command, student?.email as string, '--all-profiles', '-o', 'json', '--retries', '0']);
      // Found in escola-b; not found in escola-a (4); escola-b... and the school that is down (6): the worst is 6.
      expect(code).toBe(6);
      expect((JSON.parse(stdout) as Array<{ profile: string; email: string }>).map((row) => [row.profile, row.email])).toEqual([['escola-b', student?.email]]);
      expect(stderr).toMatch(/^error: profile "escola-a": student with e-mail .* not found/m);
    }
  });

  it('a table at a pipe: one header, PROFILE first; xlsx: one sheet', async () => {
    const table = await members(['products', 'list', '--profiles', 'escola-a,escola-b']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^PROFILE +ID +TITLE/);
    expect(table.stdout.split('\n').filter((line) => line.startsWith('PROFILE'))).toHaveLength(1);
    const file = join(configDir, 'products.xlsx');
    const workbook = await members(['products', 'list', '--profiles', 'escola-a,escola-b', '--out', file]);
    expect(workbook.code).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    expect(book.worksheets).toHaveLength(1);
    const profiles = (book.worksheets[0] as ExcelJS.Worksheet).getColumn(1).values.slice(1);
    expect(profiles[0]).toBe('profile');
    expect(new Set(profiles.slice(1))).toEqual(new Set(['escola-a', 'escola-b']));
  });

  it('changing commands have no --profiles: exit 2; an unknown profile is exit 2 before any request', async () => {
    for (const args of [['students', 'grant', 'a@example.com', 'Python Pro', '--all-profiles'], ['students', 'delete', 'a@example.com', '--profiles', 'escola-a,escola-b']]) {
      const { code, stderr } = await members(args);
      expect(code).toBe(2);
      expect(stderr).toMatch(/unknown option '--(all-)?profiles'/);
    }
    // A command line wrong for every school is said once, as for one.
    const chart = await members(['report', 'engaged-courses', '--chart', '--out', join(configDir, 'r.xlsx'), '--all-profiles']);
    expect(chart.code).toBe(2);
    expect(chart.stderr).toBe('error: --chart makes the workbook of one school: drop --profiles or --all-profiles, or run it once per profile\n');
    const unknown = await members(['products', 'list', '--profiles', 'escola-a,escola-z']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no stored profile "escola-z": the profiles are "escola-a", "escola-b", "fora-do-ar"');
  });
});

describe.skipIf(!HAS_SCRIPT)('the school is always named (several profiles stored)', () => {
  const host = () => new URL(school.url).host;

  it('a read at a terminal says which profile and host it read, once', async () => {
    const { code, output } = await runInTerminal(['products', 'list', '--profile', 'escola-a', '--no-pager'], { env: { MEMBERS_CONFIG_DIR: configDir, NO_COLOR: '1' } });
    expect(code).toBe(0);
    expect(output.split(`→ escola-a (${host()})`)).toHaveLength(2);
    // The report, whose client is its own, too.
    const report = await runInTerminal(['report', 'engaged-courses', '--top', '1', '--profile', 'escola-a', '--no-pager'], { env: { MEMBERS_CONFIG_DIR: configDir, NO_COLOR: '1' } });
    expect(report.output).toContain(`→ escola-a (${host()})`);
  });

  it('piped, stderr says nothing of it: scripts read stdout and stderr as before', async () => {
    const { code, stderr } = await members(['products', 'list', '--profile', 'escola-a']);
    expect(code).toBe(0);
    expect(stderr).not.toContain('→');
  });

  it('students show names the school in its card', async () => {
    const [student] = await alone('escola-a', ['students', 'list']);
    const { code, output } = await runInTerminal(['students', 'show', student?.email as string, '--profile', 'escola-a', '--no-pager'], { env: { MEMBERS_CONFIG_DIR: configDir, NO_COLOR: '1' } });
    expect(code).toBe(0);
    expect(output).toMatch(new RegExp(`SCHOOL +│ escola-a \\(${host().replace(/\./g, '\\.')}\\)`));
  });
});

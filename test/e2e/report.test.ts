/**
 * `members report engaged-courses` end to end: the built binary against
 * `members sandbox`, compared row for row with the sandbox's own computation
 * on the same seed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeEngagedReport, SandboxStore, type ReportRow } from '../../src/sandbox/server.js';
import { generateState } from '../../src/sandbox/seed.js';
import { run, sandboxGet, useSandboxProcess } from './harness.js';

const SEED = 9;
const STUDENTS = 150;
const REPORT_ROUTE = 'GET /api/partners/reports/engaged-courses/{developer_token}/{platform_token}';

let store: SandboxStore;
let dir: string;

const members = (args: string[], env: Record<string, string> = {}) => run(args, { env: { ...sandbox.env, ...env } });
const reportRequests = async () =>
  (await sandboxGet<{ requests: Record<string, number> }>(sandbox, '/__sandbox/stats')).body.requests[REPORT_ROUTE] ?? 0;

/** What the csv must hold: every field as text, null as an empty cell. */
const asCsv = (rows: ReportRow[]) => rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? '' : String(v)])));

const sandbox = useSandboxProcess(['--students', String(STUDENTS), '--seed', String(SEED)]);

beforeAll(async () => {
  store = new SandboxStore(generateState(SEED, STUDENTS));
  dir = mkdtempSync(join(tmpdir(), 'members-report-e2e-'));
});

afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('report engaged-courses', () => {
  it.each([
    { top: 10, limit: 500 },
    { top: 10, limit: 7 },
    { top: 3, limit: 2 },
  ])('-o csv --out FILE equals the sandbox computation row for row (top $top, limit $limit)', async ({ top, limit }) => {
    const expected = computeEngagedReport(store, top);
    expect(expected.length).toBeGreaterThan(limit === 500 ? 0 : limit);
    const file = join(dir, `report-${top}-${limit}.csv`);
    const before = await reportRequests();
    const { code, stdout, stderr } = await members([
      'report', 'engaged-courses', '--top', String(top), '--limit', String(limit), '-o', 'csv', '--out', file,
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe('warning: the engaged-courses report is deprecated by the platform and may stop working without notice\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe(Object.keys(expected[0] as ReportRow).join(','));
    expect(parse(text, { columns: true })).toEqual(asCsv(expected));
    // Every page was fetched, one request each (the last page may be full and followed by none).
    expect(await reportRequests() - before).toBe(Math.max(1, Math.ceil(expected.length / limit)));
  });

  it('--max-pages 1 fetches one page only', async () => {
    const before = await reportRequests();
    const { code, stdout } = await members(['report', 'engaged-courses', '--limit', '5', '--max-pages', '1', '-o', 'ndjson', '-q']);
    expect(code).toBe(0);
    const rows = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as ReportRow);
    expect(rows).toEqual(computeEngagedReport(store, 10).slice(0, 5));
    expect(await reportRequests() - before).toBe(1);
  });

  it('json and table, and the tokens never show, even with --verbose', async () => {
    const json = await members(['report', 'engaged-courses', '--top', '1', '--limit', '3', '-o', 'json', '--verbose']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(computeEngagedReport(store, 1));
    expect(json.stderr).toContain('/api/partners/reports/engaged-courses/***/***?top_courses=1&limit=3 200');
    const table = await members(['report', 'engaged-courses', '--top', '1', '-q']);
    expect(table.code).toBe(0);
    const [first] = computeEngagedReport(store, 1);
    expect(table.stdout.split('\n')[0]).toMatch(/^COURSE +NAME +E-MAIL +COMPLETION % +COURSE AVERAGE$/);
    expect(table.stdout.split('\n')[1]).toContain(first?.email);
    for (const text of [json.stdout, json.stderr, table.stdout, table.stderr]) {
      expect(text).not.toContain(sandbox.developerToken);
      expect(text).not.toContain(sandbox.platformToken);
    }
  });

  it('refused tokens are exit 3 and are not echoed', async () => {
    const { code, stdout, stderr } = await members(['report', 'engaged-courses', '-v'], {
      MEMBERS_DEVELOPER_TOKEN: 'wrong-dev-token-123', MEMBERS_PLATFORM_TOKEN: 'wrong-plat-token-456',
    });
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).not.toContain('wrong-dev-token-123');
    expect(stderr).not.toContain('wrong-plat-token-456');
  });

  it('without report tokens: exit 3 before any request', async () => {
    const { code, stderr } = await members(['report', 'engaged-courses'], { MEMBERS_DEVELOPER_TOKEN: '', MEMBERS_PLATFORM_TOKEN: '' });
    expect(code).toBe(3);
    expect(stderr).toContain('set MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN');
  });

  it('--top 51 is exit 2', async () => {
    const { code, stderr } = await members(['report', 'engaged-courses', '--top', '51']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid --top "51": expected an integer between 1 and 50\n');
  });
});

/**
 * The commands that read pages, dates, ids and student lookups, end to end
 * against each sandbox flavor (issue 13): the friendly default, and what a
 * Laravel 8 application sends with paginate() or simplePaginate(), in a server
 * zone east of UTC (Tokyo) or at UTC+13 (Auckland in January). Every flavor
 * serves the same seeded data, so each run is compared with the truth read
 * from a default sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, startSandbox, tempDir, type SandboxProcess } from './harness.js';

const SEED = ['--students', '64', '--seed', '5'];

const FLAVORS = [
  { name: 'default', args: [] },
  { name: 'laravel paginate() from Tokyo', args: ['--flavor', 'laravel'] },
  { name: 'laravel simplePaginate() from Auckland', args: ['--flavor', 'laravel', '--paginator', 'simple', '--server-tz', 'Pacific/Auckland'] },
];

interface Student { id: string; email: string; document: string | null; subscriptions?: Subscription[] }
interface Subscription { id: string | number; product_id: string; accession_date: string; expiration_date: string | null }
interface ReportRow { id: string }

const ndjson = <T>(text: string): T[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);

/** The data as the default sandbox serves it, read straight from the API. */
const truth = { students: [] as Student[], subscriptions: 0, reportRows: [] as string[] };

beforeAll(async () => {
  const reference = await startSandbox(SEED);
  try {
    truth.students = (await sandboxGet<{ data: Student[] }>(reference, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
    truth.subscriptions = (await sandboxGet<{ meta: { total: number } }>(reference, '/api/v1/subscriptions?per_page=1')).body.meta.total;
    const report = await run(['report', 'engaged-courses', '--top', '20', '-o', 'ndjson', '-q'], { env: reference.env });
    truth.reportRows = ndjson<ReportRow>(report.stdout).map((row) => row.id);
  } finally {
    await reference.stop();
  }
});

describe.each(FLAVORS)('against the $name sandbox', ({ args }) => {
  let sandbox: SandboxProcess;
  let configDir: string;
  const members = (argv: string[], env: Record<string, string> = {}) => run(argv, { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir, ...env } });

  beforeAll(async () => {
    sandbox = await startSandbox([...SEED, ...args]);
    configDir = tempDir();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('students list --all and --limit get every student once, each page with the command\'s own query', async () => {
    const all = await members(['students', 'list', '--all', '--per-page', '10', '-o', 'ndjson']);
    expect(all.code, all.stderr).toBe(0);
    expect(ndjson<Student>(all.stdout).map((s) => s.id)).toEqual(truth.students.map((s) => s.id));

    const limited = await members(['students', 'list', '--limit', '40', '--per-page', '20', '--with-subscriptions', '-o', 'json']);
    expect(limited.code, limited.stderr).toBe(0);
    const rows = JSON.parse(limited.stdout) as Student[];
    expect(rows.map((s) => s.id)).toEqual(truth.students.slice(0, 40).map((s) => s.id));
    expect(rows.every((s) => Array.isArray(s.subscriptions))).toBe(true);
  });

  it('api --paginate keeps -f per_page and with on every page', async () => {
    const { code, stdout, stderr } = await members(['api', '/api/v1/students', '-f', 'per_page=10', '-f', 'with=subscriptions', '--paginate']);
    expect(code, stderr).toBe(0);
    const rows = JSON.parse(stdout) as Student[];
    expect(rows.map((s) => s.id)).toEqual(truth.students.map((s) => s.id));
    expect(rows.every((s) => Array.isArray(s.subscriptions))).toBe(true);
  });

  it('subscriptions list --all in csv and json: every subscription once; get finds one by its id, integer or not', async () => {
    const csv = await members(['subscriptions', 'list', '--all', '-o', 'csv', '--fields', 'id,accession_date']);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trimEnd().split('\n').slice(1);
    expect(lines).toHaveLength(truth.subscriptions);
    expect(new Set(lines.map((line) => line.split(',')[0])).size).toBe(truth.subscriptions);
    // Date-only fields are calendar dates in every format, whatever the server's zone.
    expect(lines.every((line) => /^[^,]+,\d{4}-\d{2}-\d{2}$/.test(line))).toBe(true);

    const json = await members(['subscriptions', 'list', '--all', '-o', 'json']);
    const subscriptions = JSON.parse(json.stdout) as Subscription[];
    expect(subscriptions).toHaveLength(truth.subscriptions);
    const one = subscriptions[0] as Subscription;
    const got = await members(['subscriptions', 'get', String(one.id), '-o', 'json']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: one.id, accession_date: one.accession_date });
  });

  it('report engaged-courses follows every page, with or without next_cursor', async () => {
    const { code, stdout, stderr } = await members(['report', 'engaged-courses', '--top', '20', '--limit', '7', '-o', 'ndjson']);
    expect(code, stderr).toBe(0);
    expect(ndjson<ReportRow>(stdout).map((row) => row.id)).toEqual(truth.reportRows);
  });

  it('students get doc: finds a student whose document holds a "/", even where the server cannot route it', async () => {
    const withSlash = truth.students.find((s) => s.document?.includes('/'));
    expect(withSlash).toBeDefined();
    const { code, stdout, stderr } = await members(['students', 'get', `doc:${withSlash?.document}`, '-o', 'json']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ id: withSlash?.id, document: withSlash?.document });
  });

  it('grant → revoke → undo keeps the dates exactly, and grant echoes the dates it sent', async () => {
    const student = truth.students[truth.students.length - 1] as Student;
    const products = JSON.parse((await members(['products', 'list', '--all', '-o', 'json'])).stdout) as Array<{ id: string }>;
    const product = products.find((p) => !student.subscriptions?.some((s) => s.product_id === p.id)) as { id: string };
    const grant = await members(['students', 'grant', student.email, product.id, '--accession', '2025-01-15', '--expiration', '2026-01-01', '-o', 'json']);
    expect(grant.code, grant.stderr).toBe(0);
    expect(JSON.parse(grant.stdout)).toMatchObject({ accession_date: '2025-01-15', expiration_date: '2026-01-01' });

    expect((await members(['students', 'revoke', student.email, product.id, '--yes'])).code).toBe(0);
    const history = JSON.parse((await members(['history', '--limit', '1', '-o', 'json'])).stdout) as Array<{ id: string }>;
    const undo = await members(['undo', history[0]?.id as string, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain('(accession 2025-01-15, expiration 2026-01-01)');
    const held = JSON.parse((await members(['students', 'products', student.email, '-o', 'json'])).stdout) as Subscription[];
    expect(held.find((s) => s.product_id === product.id)).toMatchObject({ accession_date: '2025-01-15', expiration_date: '2026-01-01' });
  });

  it('tables show instants in the user\'s zone, named in the header, and calendar dates as they are', async () => {
    const student = truth.students.find((s) => s.subscriptions?.length) as Student;
    const { code, stdout } = await members(['students', 'get', student.id], { TZ: 'America/Sao_Paulo' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^CREATED \(America\/Sao_Paulo\) +\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/m);
    const accession = (student.subscriptions?.[0] as Subscription).accession_date;
    expect(stdout).toContain(accession);
  });

  it('scores set works whether PUT answers 200 or 201', async () => {
    const student = truth.students[0] as Student;
    const { code, stdout, stderr } = await members(['scores', 'set', student.id, '42', '-o', 'json']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ score: 42 });
  });
});

describe('a server that throttles per minute, or is down for maintenance', () => {
  it('a 429 whose Retry-After is beyond what may be retried now: exit 6, "rate limited", when to try again', async () => {
    const sandbox = await startSandbox(['--students', '3', '--rate-limit', '2/min']);
    try {
      for (let i = 0; i < 2; i++) expect((await run(['products', 'list', '-q'], { env: sandbox.env })).code).toBe(0);
      const { code, stderr } = await run(['products', 'list', '--retries', '0'], { env: sandbox.env });
      expect(code).toBe(6);
      expect(stderr).toMatch(/^error: rate limited \(429\): Too Many Attempts\.; the server asks to wait \d+s: try again after .+ \(GET \/api\/v1\/products/m);
      expect(stderr).not.toContain('server unavailable');
    } finally {
      await sandbox.stop();
    }
  });

  it('a POST answered 503 names the POST and whether it was applied', async () => {
    const sandbox = await startSandbox(['--students', '3', '--maintenance']);
    try {
      const { code, stderr } = await run(
        ['students', 'create', '--first-name', 'Ana', '--last-name', 'Lima', '--email', 'ana@example.com', '--retries', '1', '-q'], { env: sandbox.env },
      );
      expect(code).toBe(6);
      expect(stderr).toBe('error: server unavailable (503): Service Unavailable; the change may or may not have been applied (the check for it failed too: '
        + 'GET /api/v1/students/email/ana%40example.com answered 503); check before trying again (POST /api/v1/students)\n');
    } finally {
      await sandbox.stop();
    }
  });

  it('members sandbox refuses an unknown flavor, paginator, zone or rate before starting (exit 2)', async () => {
    for (const argv of [['--flavor', 'rails'], ['--paginator', 'cursor'], ['--server-tz', 'Mars/Olympus'], ['--rate-limit', '5/hour']]) {
      const { code, stderr } = await run(['sandbox', '--port', '0', ...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr).toMatch(/^error: .*(--flavor|--paginator|--server-tz|--rate-limit)/);
    }
  });
});

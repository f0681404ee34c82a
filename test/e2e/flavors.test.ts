/**
 * What the command × format matrix (flavor-matrix.test.ts) does not show,
 * against each sandbox variant (issue 13): `api --paginate` keeps the `-f`
 * query on every page, and tables show instants (a cancel, a creation) in
 * the user's zone, named in the header, and calendar dates as the server
 * meant them. Then the Laravel server's per-minute throttle, maintenance
 * mode, and the sandbox's own flag checks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess } from './harness.js';
import { FLAVORS, SEED } from './flavors.js';

interface Subscription { id: string | number; product_id: string; accession_date: string; cancel_date: string | null }
interface Student { id: string; email: string; subscriptions: Subscription[] }

const USER_TZ = 'America/Sao_Paulo';
/** The day of a time as the user sees it: an instant's day in USER_TZ, a plain date as it is. */
const userDay = (time: string) => (time.includes('T') ? new Intl.DateTimeFormat('en-CA', { timeZone: USER_TZ }).format(new Date(time)) : time);

describe.each(FLAVORS)('against the $name sandbox', ({ args }) => {
  /** The students as this variant sends them (its own subscription ids, its own date forms). */
  let students: Student[];

  const sandbox = useSandboxProcess([...SEED, ...args]);

  beforeAll(async () => {
    students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
  });

  it('api --paginate keeps -f per_page and with on every page', async () => {
    const { code, stdout, stderr } = await run(['api', '/api/v1/students', '-f', 'per_page=10', '-f', 'with=subscriptions', '--paginate'], { env: sandbox.env });
    expect(code, stderr).toBe(0);
    const rows = JSON.parse(stdout) as Student[];
    expect(rows.map((s) => s.id)).toEqual(students.map((s) => s.id));
    expect(rows.every((s) => Array.isArray(s.subscriptions))).toBe(true);
  });

  it('tables show instants in the user\'s zone, named in the header, and calendar dates as the server meant them', async () => {
    // A cancel late in the user's evening is the next day in UTC: the table must say the user's day.
    const canceled = students.flatMap((student) => student.subscriptions.map((subscription) => ({ student, subscription })))
      .filter(({ subscription }) => subscription.cancel_date !== null);
    const { student, subscription } = canceled.find(({ subscription }) => userDay(subscription.cancel_date as string) !== subscription.cancel_date?.slice(0, 10))
      ?? canceled[0] as (typeof canceled)[number];
    const env = { ...sandbox.env, TZ: USER_TZ };
    const got = await run(['subscriptions', 'get', String(subscription.id)], { env });
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^CANCELLED +${userDay(subscription.cancel_date as string)}$`, 'm'));
    expect(got.stdout).toMatch(/^CREATED \(America\/Sao_Paulo\) +\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/m);

    const shown = await run(['students', 'get', student.id], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^CREATED \(America\/Sao_Paulo\) +\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/m);
    const accession = JSON.parse((await run(['subscriptions', 'get', String(subscription.id), '-o', 'json'], { env })).stdout) as Subscription;
    expect(accession.accession_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shown.stdout).toContain(accession.accession_date);
  });
});

describe('a server that throttles per minute, or is down for maintenance', () => {
  const throttled = useSandboxProcess(['--students', '3', '--rate-limit', '2/min']);
  const down = useSandboxProcess(['--students', '3', '--maintenance']);

  it('a 429 whose Retry-After is beyond what may be retried now: exit 6, "rate limited", when to try again', async () => {
    for (let i = 0; i < 2; i++) expect((await run(['products', 'list', '-q'], { env: throttled.env })).code).toBe(0);
    const { code, stderr } = await run(['products', 'list', '--retries', '0'], { env: throttled.env });
    expect(code).toBe(6);
    expect(stderr).toMatch(/^error: rate limited \(429\): Too Many Attempts\.; the server asks to wait \d+s: try again after .+ \(GET \/api\/v1\/products/m);
    expect(stderr).not.toContain('server unavailable');
  });

  it('a POST answered 503 names the POST and whether it was applied', async () => {
    const { code, stderr } = await run(
      ['students', 'create', '--first-name', 'Ana', '--last-name', 'Lima', '--email', 'ana@example.com', '--retries', '1', '-q'], { env: down.env },
    );
    expect(code).toBe(6);
    expect(stderr).toBe('error: server unavailable (503): Service Unavailable; the change may or may not have been applied (the check for it failed too: '
      + 'GET /api/v1/students/email/ana%40example.com answered 503); check before trying again (POST /api/v1/students)\n');
  });

  it('members sandbox refuses an unknown flavor, paginator, zone or rate before starting (exit 2)', async () => {
    for (const argv of [['--flavor', 'rails'], ['--paginator', 'cursor'], ['--server-tz', 'Mars/Olympus'], ['--rate-limit', '5/hour']]) {
      const { code, stderr } = await run(['sandbox', '--port', '0', ...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr).toMatch(/^error: .*(--flavor|--paginator|--server-tz|--rate-limit)/);
    }
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MockAgent } from 'undici';
import JSZip from 'jszip';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

const BASE = 'https://members.example.com';
const TOKEN = 'tok_API_SENTINEL_0123456789';
// Characters that percent-encoding changes, so that both forms must be redacted.
const DEV = 'dev+SENTINEL/7f3a9c1b';
const PLAT = 'plat SENTINEL=42xq9';
const PATH = `/api/partners/reports/engaged-courses/${encodeURIComponent(DEV)}/${encodeURIComponent(PLAT)}`;

let agent: MockAgent;
let dir: string;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  dir = mkdtempSync(join(tmpdir(), 'members-report-'));
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
});

const ENV = { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_DEVELOPER_TOKEN: DEV, MEMBERS_PLATFORM_TOKEN: PLAT };

function start(args: string[], env: Record<string, string | undefined> = ENV) {
  const fake = fakeIo({ env: { MEMBERS_CONFIG_DIR: join(dir, 'config'), ...env }, cwd: dir });
  const done = main(args, fake.io, { dispatcher: agent });
  return { fake, done };
}

async function cli(args: string[], env?: Record<string, string | undefined>) {
  const { fake, done } = start(args, env);
  const code = await done;
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const row = (n: number, course = 'c1') => ({
  id: `u${n}|${course}`, user_id: `u${n}`, course_id: course, course_name: course === 'c1' ? 'Yoga' : 'Pilates', product_name: 'Bundle',
  first_name: `First${n}`, last_name: n % 2 ? `Last${n}` : null, phone: null, document: null, email: `u${n}@example.com`,
  registration_date: '2024-01-10 00:00:00', course_completion_percent: '87.50', course_avg_engagement_score: '64.25',
});

/** A cursor page as Laravel sends it: its URLs carry the tokens, which must never be echoed. */
function cursorPage(data: unknown[], next: string | null) {
  return {
    data, path: `${BASE}${PATH}`, per_page: 2, next_cursor: next, next_page_url: next ? `${BASE}${PATH}?cursor=${next}` : null,
    prev_cursor: null, prev_page_url: null,
  };
}

const noAuthorization = (headers: Record<string, string>) => !Object.keys(headers).some((key) => key.toLowerCase() === 'authorization');

const intercept = (query: Record<string, string>) =>
  agent.get(BASE).intercept({ path: PATH, method: 'GET', query, headers: noAuthorization });

const DEPRECATION = 'warning: the engaged-courses report is deprecated by the platform and may stop working without notice\n';

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    for (const secret of [DEV, PLAT, TOKEN, encodeURIComponent(DEV), encodeURIComponent(PLAT), 'SENTINEL']) {
      expect(text).not.toContain(secret);
    }
  }
}

describe('report engaged-courses: flags', () => {
  it.each([
    [['--top', '0'], 'invalid --top "0": expected an integer between 1 and 50'],
    [['--top', '51'], 'invalid --top "51": expected an integer between 1 and 50'],
    [['--limit', '1'], 'invalid --limit "1": expected an integer between 2 and 500'],
    [['--limit', '501'], 'invalid --limit "501": expected an integer between 2 and 500'],
    [['--top', 'ten'], 'invalid --top "ten": expected an integer between 1 and 50'],
    [['--max-pages', '0'], 'invalid --max-pages "0": expected an integer of at least 1'],
    [['--cursor', ' '], '--cursor needs the next_cursor value of an earlier page'],
  ])('%j is exit 2 before any request', async (flags, message) => {
    // No interceptor: any request would fail the run with another exit code.
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses', ...flags]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: ${message}\n`);
  });

  it('is exit 3 without report tokens, saying how to set them', async () => {
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses'], { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_PLATFORM_TOKEN: PLAT });
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'error: no report developer token for profile "default": set MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN, '
        + 'or store them with `members auth login` (it reads them from those variables or asks on a terminal)\n',
    );
    expectNoSecret(stderr);
  });
});

describe('report engaged-courses', () => {
  it('follows next_cursor with the same top_courses and limit on every page, without the API token', async () => {
    intercept({ top_courses: '5', limit: '2' }).reply(200, cursorPage([row(1), row(2)], 'cur2'));
    intercept({ top_courses: '5', limit: '2', cursor: 'cur2' }).reply(200, cursorPage([row(3), row(4, 'c2')], 'cur3'));
    intercept({ top_courses: '5', limit: '2', cursor: 'cur3' }).reply(200, cursorPage([row(5, 'c2')], null));
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses', '--top', '5', '--limit', '2', '-o', 'ndjson'],
      { MEMBERS_BASE_URL: BASE, MEMBERS_DEVELOPER_TOKEN: DEV, MEMBERS_PLATFORM_TOKEN: PLAT });
    expect(code).toBe(0);
    expect(stdout).toBe([row(1), row(2), row(3), row(4, 'c2'), row(5, 'c2')].map((r) => `${JSON.stringify(r)}\n`).join(''));
    expect(stderr).toBe(DEPRECATION);
  });

  it('sends the defaults (top 10, limit 500), and starts from --cursor', async () => {
    intercept({ top_courses: '10', limit: '500', cursor: 'abc' }).reply(200, cursorPage([row(1)], null));
    const { code, stdout } = await cli(['report', 'engaged-courses', '--cursor', 'abc', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([row(1)]);
  });

  it('--max-pages 1 asks for one page only', async () => {
    intercept({ top_courses: '10', limit: '500' }).reply(200, cursorPage([row(1), row(2)], 'cur2'));
    const { code, stdout } = await cli(['report', 'engaged-courses', '--max-pages', '1', '-o', 'ndjson', '-q']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(2);
  });

  it('prints the table columns, and no deprecation notice with --quiet', async () => {
    intercept({ top_courses: '10', limit: '500' }).reply(200, cursorPage([row(1), row(2)], null));
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses', '--quiet']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe([
      'COURSE  NAME          E-MAIL          COMPLETION %  COURSE AVERAGE',
      'Yoga    First1 Last1  u1@example.com  87.50         64.25',
      'Yoga    First2        u2@example.com  87.50         64.25',
      '',
    ].join('\n'));
  });

  it('streams: the rows of the first page are out before the second page arrives', async () => {
    intercept({ top_courses: '10', limit: '2' }).reply(200, cursorPage([row(1), row(2)], 'cur2'));
    intercept({ top_courses: '10', limit: '2', cursor: 'cur2' }).reply(200, cursorPage([row(3)], null)).delay(300);
    const { fake, done } = start(['report', 'engaged-courses', '--limit', '2', '-o', 'csv']);
    let finished = false;
    void done.then(() => (finished = true));
    await vi.waitFor(() => expect(fake.stdout().split('\n').length).toBeGreaterThanOrEqual(4));
    expect(finished).toBe(false);
    expect(await done).toBe(0);
    expect(fake.stdout().trim().split('\n')).toHaveLength(4);
  });

  it('reads the tokens from the profile when the environment has none', async () => {
    const login = await cli(['auth', 'login', '--base-url', BASE, '--no-verify'], ENV);
    expect(login.code).toBe(0);
    intercept({ top_courses: '10', limit: '500' }).reply(200, cursorPage([row(1)], null));
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses', '-o', 'ndjson', '-q'], {});
    expect(code).toBe(0);
    expect(stdout).toBe(`${JSON.stringify(row(1))}\n`);
    expectNoSecret(stdout, stderr);
  });
});

describe('report engaged-courses: secrets', () => {
  it('never shows the tokens, even with --verbose', async () => {
    intercept({ top_courses: '10', limit: '2' }).reply(200, cursorPage([row(1), row(2)], 'cur2'));
    intercept({ top_courses: '10', limit: '2', cursor: 'cur2' }).reply(200, cursorPage([row(3)], null));
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses', '--limit', '2', '--verbose', '-o', 'json']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^GET https:\/\/members\.example\.com\/api\/partners\/reports\/engaged-courses\/\*\*\*\/\*\*\*\?top_courses=10&limit=2 200 \d+ms retries=0$/m);
    expectNoSecret(stdout, stderr);
  });

  it('never shows the tokens on a 422 that echoes them, with --verbose and -o json', async () => {
    intercept({ top_courses: '10', limit: '500' }).reply(422, {
      message: `The limit is invalid for ${DEV} / ${PLAT}`,
      errors: { limit: [`bad limit for ${encodeURIComponent(DEV)}`] },
    });
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses', '--verbose', '-o', 'json']);
    expect(code).toBe(5);
    expect(stdout).toBe('');
    expect(stderr).toContain('error: the server rejected the request (422): The limit is invalid for *** / ***');
    expect(stderr).toContain('"exit_code":5');
    expectNoSecret(stdout, stderr);
  });

  it('a refused token is exit 3, and is not shown', async () => {
    intercept({ top_courses: '10', limit: '500' }).reply(401, { message: `Unauthenticated: ${PLAT}` });
    const { code, stdout, stderr } = await cli(['report', 'engaged-courses', '-v']);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain('check MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN');
    expectNoSecret(stdout, stderr);
  });
});

describe('report engaged-courses --out', () => {
  it('writes the csv file with mode 0600 and nothing on stdout', async () => {
    intercept({ top_courses: '10', limit: '500' }).reply(200, cursorPage([row(1), row(2)], null));
    const { code, stdout } = await cli(['report', 'engaged-courses', '-o', 'csv', '--out', 'report.csv', '-q']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const file = join(dir, 'report.csv');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe(Object.keys(row(1)).join(','));
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('leaves no file behind when a later page fails', async () => {
    intercept({ top_courses: '10', limit: '2' }).reply(200, cursorPage([row(1), row(2)], 'cur2'));
    intercept({ top_courses: '10', limit: '2', cursor: 'cur2' }).reply(500, { message: 'boom' });
    const { code, stderr } = await cli(['report', 'engaged-courses', '--limit', '2', '-o', 'csv', '--out', 'report.csv', '--retries', '0']);
    expect(code).toBe(6);
    expect(stderr).toContain('error: server unavailable (500)');
    expectNoSecret(stderr);
    expect(readdirSync(dir).filter((name) => name !== 'config')).toEqual([]);
  });

  it('leaves no file behind on Ctrl-C, exit 130', async () => {
    intercept({ top_courses: '10', limit: '2' }).reply(200, cursorPage([row(1), row(2)], 'cur2'));
    intercept({ top_courses: '10', limit: '2', cursor: 'cur2' }).reply(200, cursorPage([row(3)], null)).delay(200);
    const { fake, done } = start(['report', 'engaged-courses', '--limit', '2', '-o', 'csv', '--out', 'report.csv', '-q']);
    // Once the second page is asked for (its answer is 200 ms away): the interrupt lands while a request is in flight.
    await vi.waitFor(() => expect(agent.pendingInterceptors()).toEqual([]));
    fake.interrupt();
    expect(await done).toBe(130);
    expect(fake.stderr()).toBe('error: interrupted\n');
    expect(readdirSync(dir).filter((name) => name !== 'config')).toEqual([]);
  });
});

describe('report engaged-courses --group-by course', () => {
  const withCompletion = (n: number, course: string, completion: string) => ({ ...row(n, course), course_completion_percent: completion });
  const twoCourses = () => {
    intercept({ top_courses: '10', limit: '2' }).reply(200, cursorPage([withCompletion(1, 'c1', '100.00'), withCompletion(2, 'c1', '50.00')], 'cur2'));
    intercept({ top_courses: '10', limit: '2', cursor: 'cur2' }).reply(200, cursorPage([withCompletion(3, 'c2', '25.00')], null));
  };
  const terminal = (args: string[], options: { columns: number; env?: Record<string, string> }) => {
    const fake = fakeIo({ env: { MEMBERS_CONFIG_DIR: join(dir, 'config'), ...ENV, ...options.env }, cwd: dir, stdoutTTY: true, columns: options.columns });
    return main(args, fake.io, { dispatcher: agent }).then((code) => ({ code, stdout: fake.stdout() }));
  };
  const args = ['report', 'engaged-courses', '--limit', '2', '--group-by', 'course', '-q', '--no-pager'];

  it('json: one record per course over every page', async () => {
    twoCourses();
    const { code, stdout } = await cli([...args, '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { course_id: 'c1', course: 'Yoga', students: 2, finished: 1, mean_completion: 75, average_score: 64.25 },
      { course_id: 'c2', course: 'Pilates', students: 1, finished: 0, mean_completion: 25, average_score: 64.25 },
    ]);
  });

  it('at a terminal, a bar per course fills the width the other columns leave', async () => {
    twoCourses();
    const { code, stdout } = await terminal(args, { columns: 100, env: { NO_COLOR: '1' } });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.every((line) => line.length <= 100)).toBe(true);
    const yoga = lines.find((line) => line.includes('Yoga')) as string;
    const pilates = lines.find((line) => line.includes('Pilates')) as string;
    const bar = (line: string) => /█+[▏▎▍▌▋▊▉]?/.exec(line)?.[0] ?? '';
    // 75 % and 25 %: three times as long, to an eighth of a character.
    expect(bar(yoga).length).toBeGreaterThanOrEqual(3 * bar(pilates).length - 1);
    expect(bar(yoga).length).toBeGreaterThan(10);
    expect(stdout).not.toContain('\u001b[');
  });

  it('on a narrow terminal the bar is narrower; TERM=dumb draws it in ASCII', async () => {
    twoCourses();
    const wide = await terminal(args, { columns: 120, env: { NO_COLOR: '1' } });
    twoCourses();
    const narrow = await terminal(args, { columns: 90, env: { NO_COLOR: '1', TERM: 'dumb' } });
    expect(narrow.code).toBe(0);
    expect(narrow.stdout).not.toMatch(/[█▏▎▍▌▋▊▉─│]/);
    const hashes = (/#+/.exec(narrow.stdout.split('\n').find((line) => line.includes('Yoga')) as string)?.[0] ?? '').length;
    const blocks = (/█+/.exec(wide.stdout.split('\n').find((line) => line.includes('Yoga')) as string)?.[0] ?? '').length;
    expect(hashes).toBeGreaterThan(0);
    expect(hashes).toBeLessThan(blocks);
  });

  it('colour paints the bar when colour is on', async () => {
    twoCourses();
    const { stdout } = await terminal(args, { columns: 100, env: { FORCE_COLOR: '1' } });
    expect(stdout).toContain('\u001b[32m███');
  });

  it.each([
    [['--chart']],
    [['--chart', '-o', 'csv', '--out', 'r.csv']],
    [['--chart', '-o', 'xlsx']],
  ])('%j without an xlsx --out is exit 2, before any request', async (extra) => {
    const { code, stderr } = await cli(['report', 'engaged-courses', ...extra]);
    expect(code).toBe(2);
    expect(stderr).toContain('--chart draws into a workbook: add --out FILE.xlsx');
  });

  it.each([
    [['--fields', 'email'], '--chart writes every field of each sheet: drop --fields'],
    [['--no-header'], '--chart needs the header row (the chart names its series there): drop --no-header'],
  ])('--chart with %j is exit 2, before any request', async (extra, message) => {
    const { code, stderr } = await cli(['report', 'engaged-courses', '--chart', '--out', 'r.xlsx', ...extra]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(readdirSync(dir).filter((name) => name !== 'config')).toEqual([]);
  });

  it('--chart writes the courses, then the students, into one workbook', async () => {
    intercept({ top_courses: '10', limit: '2' }).reply(200, cursorPage([row(1), row(2, 'c2')], null));
    const { code, stdout } = await cli(['report', 'engaged-courses', '--limit', '2', '--chart', '--out', 'r.xlsx', '-q']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const zip = await JSZip.loadAsync(readFileSync(join(dir, 'r.xlsx')));
    expect(await zip.file('xl/workbook.xml')?.async('string')).toMatch(/<sheet [^>]*name="courses"[^>]*\/><sheet [^>]*name="students"/);
    expect(await zip.file('xl/charts/chart1.xml')?.async('string')).toContain('<c:v>Pilates</c:v>');
    expect(await zip.file('xl/worksheets/sheet2.xml')?.async('string')).toContain('<conditionalFormatting sqref="L2:L3"><cfRule type="dataBar"');
  });
});

/** `members each` in-process against undici's MockAgent: the rows read from stdin, run through the one program, halted, refused. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();
const LINKS = 'E-mail;Nome\nana@x.co;Ana\nbia@x.co;Bia\ncid@x.co;Cid\n';

function link(email: string, status = 200) {
  t.pool().intercept({ path: `/api/v1/students/email/${encodeURIComponent(email)}/magic-link`, method: 'POST' })
    .reply(status, status === 200 ? { data: { url: `https://m.example.com/magic/${email}`, expire_in: 3600 } } : { message: 'Server Error' });
}

describe('members each', () => {
  it('reads the rows from stdin (; separated) and runs each through the program: one request per row, the results as JSON', async () => {
    for (const email of ['ana@x.co', 'bia@x.co', 'cid@x.co']) link(email);
    const { code, stdout, stderr } = await t.cli(['each', '-', '--yes', '-o', 'json', '--concurrency', '2', '--', 'magic-link', '{e-mail}'], { stdin: LINKS });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual(['ana', 'bia', 'cid'].map((name, index) => ({
      line: index + 2, 'E-mail': `${name}@x.co`, Nome: name.charAt(0).toUpperCase() + name.slice(1), result: 'done', message: '', expire_in: 3600, url: `https://m.example.com/magic/${name}@x.co`,
    })));
    expect(stderr).toMatch(/^→ default \(members\.example\.com\)\n3 rows: 3 done, 0 skipped, 0 failed in \d+\.\ds \(run \S+: members undo \S+\)\n$/);
  });

  it('a field the command prints under an input column\'s name never replaces the cell (--only-failed reads it back); other commands\' columns are the first done row\'s', async () => {
    t.pool().intercept({ path: '/api/v1/students/s9', method: 'GET' }).reply(404, { message: 'Not found.' });
    t.pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: { id: 's1', first_name: 'Ana', email: 'ana@x.co' } });
    const { code, stdout } = await t.cli(['each', '-', '-o', 'csv', '--concurrency', '1', '--', 'students', 'get', '{id}'], { stdin: 'id\ns9\ns1\n' });
    expect(code).toBe(7);
    const [header, failed, done] = stdout.trim().split('\n');
    expect(header).toBe('line,id,result,message,first_name,email');
    expect(failed).toMatch(/^2,s9,failed,.*not found.*,,$/);
    expect(done).toBe('3,s1,done,,Ana,ana@x.co');
  });

  it('students get by phone on several rows: the student list read once for the run, the student once', async () => {
    const joao = { id: 's2', first_name: 'João', email: 'joao@x.co', phone: '+55 (61) 93986-2924' };
    t.pool().intercept({ path: (path: string) => path.startsWith('/api/v1/students?'), method: 'GET' })
      .reply(200, { data: [joao], meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 }, links: { next: null } });
    t.pool().intercept({ path: '/api/v1/students/s2', method: 'GET' }).reply(200, { data: joao });
    const { code, stdout, stderr } = await t.cli(['each', '-', '-o', 'ndjson', '--', 'students', 'get', '{WhatsApp}'], { stdin: 'WhatsApp\n(61) 93986-2924\n61 93986-2924\n+55 61 93986-2924\n' });
    expect(code, stderr).toBe(0);
    expect(stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([2, 3, 4].map((line) => ({ line, result: 'done', id: 's2' })));
  });

  it('rows from stdin need --yes: exit 2 before any request (and --summary says a person is needed)', async () => {
    t.agent.enableCallHistory();
    const summary = join(t.configDir, 'summary.json');
    const { code, stderr } = await t.cli(['each', '-', '--summary', summary, '--', 'magic-link', '{E-mail}'], { stdin: LINKS });
    expect(code).toBe(2);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ command: 'each', exit_code: 2, person_needed: true, run_id: null, counts: null, failures: [] });
    expect(stderr).toContain('error: Run `magic-link {E-mail}` for 3 rows of stdin: confirmation needed but the rows come from stdin; pass --yes to proceed');
    expect(t.agent.getCallHistory()?.calls() ?? []).toEqual([]);
  });

  it('a global option in the row\'s command line is the run\'s: every row refused, nothing sent', async () => {
    t.agent.enableCallHistory();
    const { code, stderr } = await t.cli(['each', '-', '--yes', '--', 'magic-link', '{E-mail}', '--profile', 'other'], { stdin: LINKS });
    expect(code).toBe(2);
    expect(stderr).toContain("error: line 2: --profile is the run's: give it before `each`, not in the row's command\n");
    expect(stderr).toContain('error: 3 invalid rows in stdin; nothing was sent');
    expect(t.agent.getCallHistory()?.calls() ?? []).toEqual([]);
  });

  it('--halt soon starts no row after a failure; exit 7 with the failed row\'s reason', async () => {
    link('ana@x.co', 422);
    const summary = join(t.configDir, 'summary.json');
    const { code, stdout, stderr } = await t.cli(['each', '-', '--yes', '--halt', 'soon', '--concurrency', '1', '-o', 'json', '--summary', summary, '--', 'magic-link', '{E-mail}'], { stdin: LINKS });
    expect(code).toBe(7);
    // --summary: one object for cron, whatever the exit code; a person is needed.
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toEqual({
      command: 'each', profile: 'default', run_id: null, exit_code: 7, person_needed: true, duration_s: expect.any(Number) as number,
      counts: { done: 0, skipped: 0, failed: 1 }, run_counts: null, by_product: null, failures: [{ line: 2, message: expect.stringContaining('(422)') as string }],
    });
    expect((JSON.parse(stdout) as Array<{ line: number; result: string }>).map((row) => [row.line, row.result])).toEqual([[2, 'failed']]);
    expect(stderr).toContain('1 of 3 rows: 0 done, 0 skipped, 1 failed in');
    expect(stderr).toContain('2 not run: --halt soon after a failed row; run the same command again for the rest');
  });

  it('--file forms are runs of their own: refused in a row', async () => {
    const { code, stderr } = await t.cli(['each', '-', '--yes', '--', 'students', 'grant', '--file', '{E-mail}'], { stdin: LINKS });
    expect(code).toBe(2);
    expect(stderr).toContain("error: line 2: --file makes a run of its own; give the row's student and values instead");
  });
});

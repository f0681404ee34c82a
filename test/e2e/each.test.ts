/**
 * `members each` through the built binary against `members sandbox`, in the
 * default flavour and Laravel's (issue 37): magic links from a form, the
 * contest points undone as one run, every row checked before anything is
 * sent, a SIGKILL in the middle and a re-run that does every row once, the
 * results fed back with --only-failed, a canary with --first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { run, sandboxGet, tempDir } from './harness.js';
import { describeBulkFlavors, holdNext, resetCounts, settled, spawnMembers, stats, writeCsv, type Student } from './bulk-helpers.js';
import type { AuditRecord } from '../../src/audit/log.js';

const MAGIC_BY_EMAIL = 'POST /api/v1/students/email/{email}/magic-link';
const BY_EMAIL = 'GET /api/v1/students/email/{email}';
const PUT_SCORES = 'PUT /api/v1/students/{id}/scores';

const FORM_HEADER = 'Carimbo de data/hora,Nome completo,E-mail,WhatsApp';

describeBulkFlavors('members each', ['--students', '120', '--seed', '37', '--latency', '20ms'], (bulk) => {
  let configs = 0;
  /** A config directory of its own per test: its record holds only that test's runs. */
  const ownEnv = () => ({ ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: join(bulk.dir, `config-${configs++}`) });
  const members = (env: Record<string, string>, argv: string[], input?: string) => run(argv, { env, input });
  const formRows = (students: Student[]) => students.map((student, index) => `2026-11-2${index % 10} 10:00:00,Aluno ${index},${student.email},+55 61 9${String(index).padStart(4, '0')}-0000`);
  let taken = 0;
  const someStudents = (count: number) => {
    const chosen = bulk.students.slice(taken, taken + count);
    taken += count;
    expect(chosen).toHaveLength(count);
    return chosen;
  };
  const scoreOf = async (id: string) => (await sandboxGet<{ data: { score: number } }>(bulk.sandbox, `/api/v1/students/${id}/scores`)).body.data.score;
  const logOf = (env: Record<string, string>): AuditRecord[] => {
    const file = join(env.MEMBERS_CONFIG_DIR as string, 'audit.jsonl');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord) : [];
  };

  it('30 magic links from a form: one run, the links in the results file, one request per link', async () => {
    const chosen = someStudents(30);
    const file = writeCsv(bulk.dir, 'turma.csv', [FORM_HEADER, ...formRows(chosen)]);
    const out = join(tempDir(), 'links.csv');
    const env = ownEnv();
    await bulk.settleAndReset();
    const result = await members(env, ['each', file, '--yes', '--out', out, '-o', 'csv', '--', 'magic-link', '{e mail}', '--expire-in', '7d']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/30 rows: 30 done, 0 skipped, 0 failed in \d+\.\ds \(run (\S+): members undo \1\)/);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(30);
    expect(Object.keys(rows[0] as object)).toEqual(['line', 'Carimbo de data/hora', 'Nome completo', 'E-mail', 'WhatsApp', 'result', 'message', 'expire_in', 'url']);
    expect(rows.map((row) => row['E-mail'])).toEqual(chosen.map((student) => student.email));
    expect(rows.every((row) => row.result === 'done' && row.expire_in === '604800' && row.url?.startsWith('http'))).toBe(true);
    // The floor: one request per link (by e-mail, no lookup); the run's own reads are none.
    const counts = await stats(bulk.sandbox);
    expect(counts[MAGIC_BY_EMAIL]).toBe(30);
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(30 * 1.05 + 3);
    // One run in the record: 30 magic links under its id, each with its line.
    const log = logOf(env);
    const run = log.find((record) => record.action === 'bulk');
    expect(run).toMatchObject({ command: 'each magic-link', result: 'completed', counts: { done: 30, skipped: 0, failed: 0 }, source: file });
    const links = log.filter((record) => record.action === 'magic-link');
    expect(links.map((record) => [record.run_id, record.line])).toEqual(chosen.map((_, index) => [run?.id, index + 2]));
    expect(JSON.stringify(log)).not.toContain('/magic/');
  }, 60_000);

  it('every row is checked first: bad rows listed by line, exit 2, nothing sent', async () => {
    const [a, b, c] = someStudents(3) as [Student, Student, Student];
    const file = writeCsv(bulk.dir, 'pontos.csv', ['Nome;E-mail;Pontos', `A;${a.email};12`, `B;;5`, `C;${b.email};doze`, `D;${c.email};7`]);
    const env = ownEnv();
    await bulk.settleAndReset();
    const bad = await members(env, ['each', file, '--yes', '--', 'scores', 'set', '{E-mail}', '{Pontos}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: line 3: the column "E-mail" is empty\n');
    expect(bad.stderr).toContain('error: line 4: invalid SCORE "doze": expected an integer\n');
    expect(bad.stderr).toContain('2 invalid rows in');
    const unknown = await members(env, ['each', file, '--yes', '--', 'scores', 'set', '{Email}', '{Points}']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('{Points} names no column: the columns of');
    const refused = await members(env, ['each', file, '--yes', '--', 'sync', '--file', 'x.csv']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('members each cannot run `sync`');
    const tooMany = await members(env, ['each', file, '--yes', '--max-rows', '3', '--', 'scores', 'get', '{E-mail}']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('has 4 rows, more than --max-rows 3');
    expect(await bulk.settledStats()).toEqual({});
    expect(logOf(env)).toEqual([]);
  }, 60_000);

  it('the contest points: a student on several rows looked up once, undo RUN restores every score, --only-failed re-runs the failed row', async () => {
    const chosen = someStudents(4);
    const before = await Promise.all(chosen.map((student) => scoreOf(student.id)));
    const [a, b, c, d] = chosen as [Student, Student, Student, Student];
    // a twice (its last row wins), an unknown e-mail fails.
    const file = writeCsv(bulk.dir, 'contest.csv', ['Nome;E-mail;Pontos', `A;${a.email};11`, `B;${b.email};22`, `A2;${a.email};13`, `C;${c.email};33`, `X;nobody-37@example.org;5`, `D;${d.email};44`]);
    const out = join(tempDir(), 'results.csv');
    const env = ownEnv();
    await bulk.settleAndReset();
    const result = await members(env, ['each', file, '--yes', '--concurrency', '1', '--out', out, '--', 'scores', 'set', '{E-mail}', '{Pontos}', '--reason', 'contest']);
    expect(result.code, result.stderr).toBe(7);
    const counts = await stats(bulk.sandbox);
    expect(counts[BY_EMAIL]).toBe(5);
    expect(counts[PUT_SCORES]).toBe(5);
    expect(await Promise.all(chosen.map((student) => scoreOf(student.id)))).toEqual([13, 22, 33, 44]);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => [row.line, row.result, row.score])).toEqual([['2', 'done', '11'], ['3', 'done', '22'], ['4', 'done', '13'], ['5', 'done', '33'], ['6', 'failed', ''], ['7', 'done', '44']]);
    expect(rows[4]?.message).toContain('student with e-mail nobody-37@example.org not found');

    const again = await members(env, ['each', out, '--yes', '--only-failed', '--', 'scores', 'set', '{E-mail}', '{Pontos}']);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain('1 row: 0 done, 0 skipped, 1 failed');

    const runId = /run (\S+): members undo/.exec(result.stderr)?.[1] as string;
    const undo = await members(env, ['undo', runId, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await Promise.all(chosen.map((student) => scoreOf(student.id)))).toEqual(before);
  }, 60_000);

  it('SIGKILL in the middle of magic links, then the same command again: every row once, none missing', async () => {
    const chosen = someStudents(12);
    const file = writeCsv(bulk.dir, 'killed.csv', [FORM_HEADER, ...formRows(chosen)]);
    const env = ownEnv();
    const argv = ['each', file, '--yes', '--concurrency', '1', '-o', 'json', '--', 'magic-link', '{E-mail}'];
    const sent = await bulk.killAfter({ argv, env, route: MAGIC_BY_EMAIL, count: 4 });
    expect(sent).toBeLessThan(12);
    // The links the killed run recorded as made; one in flight at the kill cannot be checked (no request reads a link).
    const made = logOf(env).filter((record) => record.action === 'magic-link' && record.result === 'created').map((record) => record.line);

    const rerun = await members(env, argv);
    expect(rerun.code, rerun.stderr).toBe(0);
    await settled(bulk.sandbox);
    const results = JSON.parse(rerun.stdout) as Array<{ line: number; result: string; message: string; url?: string }>;
    expect(results.map((row) => row.line)).toEqual(chosen.map((_, index) => index + 2));
    // Once: the rows the record shows done are left out; none missing: every other row made its link now.
    expect(results.filter((row) => row.result === 'skipped').map((row) => row.line)).toEqual(made);
    expect(results.filter((row) => row.result === 'done').every((row) => row.url?.startsWith('http'))).toBe(true);
    expect(made.length + results.filter((row) => row.result === 'done').length).toBe(12);
    // At most the one link in flight at the kill was made twice.
    expect((await stats(bulk.sandbox))[MAGIC_BY_EMAIL]).toBeGreaterThanOrEqual(12);
    expect((await stats(bulk.sandbox))[MAGIC_BY_EMAIL]).toBeLessThanOrEqual(13);
    // One run: the re-run continued the killed one under its id, and recorded it once, every row counted done.
    const links = logOf(env).filter((record) => record.action === 'magic-link');
    const runIds = [...new Set(links.map((record) => record.run_id))];
    expect(runIds).toHaveLength(1);
    const runId = runIds[0] as string;
    expect(rerun.stderr).toContain(`${made.length} rows done by an earlier run of the same command on the same file (run ${runId}, continued now)`);
    expect(rerun.stderr).toContain(`run ${runId}: members undo ${runId}`);
    expect(logOf(env).filter((record) => record.action === 'bulk').map((record) => [record.id, record.result, record.counts])).toEqual([[runId, 'completed', { done: 12, skipped: 0, failed: 0 }]]);
    // Every row done: the next run of the file runs it again (a new class's links), as a new run.
    const third = await members(env, argv);
    expect((JSON.parse(third.stdout) as Array<{ result: string }>).every((row) => row.result === 'done')).toBe(true);
    expect(third.stderr).not.toContain(runId);
  }, 60_000);

  it('magic-link --file: the student column found by its header, the rows back with url and expire_in', async () => {
    const chosen = someStudents(3);
    const file = writeCsv(bulk.dir, 'form.csv', [FORM_HEADER, ...formRows(chosen)]);
    const env = ownEnv();
    const result = await members(env, ['magic-link', '--file', file, '--expire-in', '2h', '--yes', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row['E-mail'], row.result, row.expire_in])).toEqual(chosen.map((student) => [student.email, 'done', 7200]));
    expect(rows.every((row) => String(row.url).startsWith('http'))).toBe(true);
    expect(logOf(env).filter((record) => record.action === 'bulk').map((record) => record.command)).toEqual(['each magic-link']);
  }, 60_000);

  it('scores add --file killed with SIGKILL, then again: every row added once; undo RUN restores every score', async () => {
    const chosen = someStudents(12);
    const before = await Promise.all(chosen.map((student) => scoreOf(student.id)));
    const file = writeCsv(bulk.dir, 'points.csv', ['Nome;E-mail;Pontos', ...chosen.map((student, index) => `N${index};${student.email};${index + 1}`)]);
    const env = ownEnv();
    const argv = ['scores', 'add', '--file', file, '--yes', '-o', 'json', '--reason', 'contest'];
    expect(await bulk.killAfter({ argv: [...argv.slice(0, 5), '--quiet', ...argv.slice(5)], env, route: PUT_SCORES, count: 4 })).toBeLessThan(12);

    const rerun = await members(env, argv);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await Promise.all(chosen.map((student) => scoreOf(student.id)))).toEqual(before.map((score, index) => score + index + 1));
    const results = JSON.parse(rerun.stdout) as Array<{ result: string }>;
    expect(results.filter((row) => row.result === 'skipped').length).toBeGreaterThanOrEqual(3);

    // One run across the kill: every change carries its id, its own record is written once.
    const changes = logOf(env).filter((record) => record.action === 'scores.set');
    expect(changes).toHaveLength(12);
    const runs = [...new Set(changes.map((record) => record.run_id))];
    expect(runs).toHaveLength(1);
    const runId = runs[0] as string;
    expect(logOf(env).filter((record) => record.action === 'bulk').map((record) => [record.id, record.counts])).toEqual([[runId, { done: 12, skipped: 0, failed: 0 }]]);
    const history = await members(env, ['history', '-o', 'json']);
    expect((JSON.parse(history.stdout) as AuditRecord[]).map((record) => [record.id, record.action, record.result])).toEqual([[runId, 'bulk', 'completed']]);

    // One undo of that run: every score as it was, each change reversed once.
    await resetCounts(bulk.sandbox);
    const undo = await members(env, ['undo', runId, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await Promise.all(chosen.map((student) => scoreOf(student.id)))).toEqual(before);
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(12);
    const undone = logOf(env).filter((record) => record.action === 'undo').map((record) => record.undoes);
    expect(undone.sort()).toEqual(changes.map((record) => record.id).sort());
    // Undone already: a second undo of the run changes nothing.
    const twice = await members(env, ['undo', runId, '--yes']);
    expect(twice.code).toBe(2);
    expect(await Promise.all(chosen.map((student) => scoreOf(student.id)))).toEqual(before);
  }, 60_000);

  it('each -- scores add killed while a change is in flight: the re-run leaves that row open, the next one finishes the run', async () => {
    const chosen = someStudents(6);
    const before = await Promise.all(chosen.map((student) => scoreOf(student.id)));
    const file = writeCsv(bulk.dir, 'flight.csv', ['E-mail;Pontos', ...chosen.map((student, index) => `${student.email};${index + 1}`)]);
    const env = ownEnv();
    const argv = ['each', file, '--yes', '-o', 'json', '--concurrency', '1', '--', 'scores', 'add', '{E-mail}', '{Pontos}'];
    await settled(bulk.sandbox);
    // The first PUT held before the server handles it: its change is in flight when the run is killed.
    const hold = await holdNext(bulk.sandbox, { method: 'PUT', route: '/api/v1/students/{id}/scores' });
    const child = spawnMembers(argv, env);
    await hold.held();
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    // Its request may still reach the server: the row is left out, and the run is not done.
    // Exit 7, as for a failed row: a script must run it again.
    const second = await members(env, argv);
    expect(second.code, second.stderr).toBe(7);
    expect(second.stderr).toContain('1 row in flight at a kill: run the same command again once checked, for the rest');
    expect(second.stderr).toContain('error: 1 row of 6 rows was in flight at a kill and is not known to be applied yet');
    expect(logOf(env).filter((record) => record.action === 'bulk')).toEqual([]);

    // The held request reaches the server after all; the next run finds it applied and finishes the one run.
    await hold.release();
    await settled(bulk.sandbox);
    const summary = join(tempDir('members-summary-'), 'summary.json');
    const third = await members(env, [...argv.slice(0, 2), '--summary', summary, ...argv.slice(2)]);
    expect(third.code, third.stderr).toBe(0);
    // --summary: this command's rows (all left out: the held change was found applied) and the run's over its attempts.
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ exit_code: 0, counts: { done: 0, skipped: 6, failed: 0 }, run_counts: { done: 6, skipped: 0, failed: 0 } });
    expect(await Promise.all(chosen.map((student) => scoreOf(student.id)))).toEqual(before.map((score, index) => score + index + 1));
    const changes = logOf(env).filter((record) => record.action === 'scores.set');
    expect(changes).toHaveLength(6);
    const runIds = [...new Set(changes.map((record) => record.run_id))];
    expect(runIds).toHaveLength(1);
    expect(logOf(env).filter((record) => record.action === 'bulk').map((record) => [record.id, record.counts])).toEqual([[runIds[0], { done: 6, skipped: 0, failed: 0 }]]);
  }, 60_000);

  it('a phone number is a student key for magic-link: one student found as search finds it, several exit 2, none exit 4', async () => {
    const env = ownEnv();
    const withPhone = bulk.students.slice(taken).find((student) => typeof (student as Student & { phone?: string }).phone === 'string' && /\d{4}/.test((student as Student & { phone?: string }).phone ?? '')) as Student & { phone: string };
    expect(withPhone).toBeDefined();
    const digits = withPhone.phone.replace(/\D/g, '');
    const national = digits.replace(/^55(?=\d{10,11}$)/, '');
    const spelled = `(${national.slice(0, 2)}) ${national.slice(2, -4)}-${national.slice(-4)}`;
    for (const typed of [withPhone.phone, spelled, national]) {
      const found = await members(env, ['magic-link', typed, '--expire-in', '10m', '-o', 'json', '-v']);
      expect(found.code, `${typed}: ${found.stderr}`).toBe(0);
      expect(JSON.parse(found.stdout)).toMatchObject({ expire_in: 600 });
      expect(found.stderr).toMatch(new RegExp(`the phone of .*${withPhone.email.replace(/[.+]/g, '\\$&')}.*, found in \\d+ requests?`, 'i'));
    }
    const none = await members(env, ['magic-link', '+55 99 90000-0001']);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('no student has the phone +55 99 90000-0001 (the whole student list was read');
    const twin = await members(env, ['students', 'create', '--first-name', 'Gêmea', '--last-name', 'Fone', '--email', `twin-${Date.now()}@example.org`, '--phone', withPhone.phone, '--yes']);
    expect(twin.code, twin.stderr).toBe(0);
    const several = await members(env, ['magic-link', spelled]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain(`2 students have the phone ${spelled}; give one's e-mail or id:`);
    expect(several.stderr).toContain(withPhone.id);
  }, 60_000);

  it('--summary, --notify and --ping for cron: received by a local server; its 500 leaves the exit code alone', async () => {
    const [a] = someStudents(1) as [Student];
    const file = writeCsv(bulk.dir, 'cron.csv', ['Nome;E-mail;Pontos', `A;${a.email};5`, 'X;nobody-cron@example.org;1']);
    const received: Array<{ path: string; body: string }> = [];
    const server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
        received.push({ path: request.url ?? '', body });
        response.statusCode = request.url === '/hook/T0-secret' ? 500 : 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const summary = join(tempDir(), 'summary.json');
    try {
      const env = ownEnv();
      const result = await members(env, ['each', file, '--yes', '-q', '--summary', summary, '--notify', `${base}/hook/T0-secret`, '--ping', `${base}/ping/uuid-1`, '--', 'scores', 'set', '{E-mail}', '{Pontos}']);
      expect(result.code).toBe(7);
      expect(result.stderr).toContain(`warning: --notify to 127.0.0.1:${(server.address() as AddressInfo).port} was answered 500; the exit code is the run's`);
      expect(result.stderr).not.toContain('T0-secret');
      // The start before anything; the end's ping and the notification together.
      expect(received[0]?.path).toBe('/ping/uuid-1/start');
      expect(received.slice(1).map((request) => request.path).sort()).toEqual(['/hook/T0-secret', '/ping/uuid-1/fail']);
      expect(received.find((request) => request.path === '/ping/uuid-1/fail')?.body).toBe('7');
      const posted = JSON.parse(received.find((request) => request.path === '/hook/T0-secret')?.body ?? '{}') as Record<string, unknown>;
      const written = JSON.parse(readFileSync(summary, 'utf8')) as Record<string, unknown>;
      expect(posted).toEqual(written);
      expect(written).toMatchObject({ command: 'each', exit_code: 7, person_needed: true, counts: { done: 1, skipped: 0, failed: 1 }, failures: [{ line: 3 }] });
      expect(written.run_id).toMatch(/^\S+-\S+$/);

      // Success: the ping says so, nobody is paged.
      received.length = 0;
      const ok = await members(env, ['scores', 'get', a.email, '-q', '--notify', `${base}/hook/T0-secret`, '--ping', `${base}/ping/uuid-1`]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(received.map((request) => request.path)).toEqual(['/ping/uuid-1/start', '/ping/uuid-1']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('sync reads a sales export with an extra column (--ignore-extra-columns) and one that arrived twice', async () => {
    const chosen = someStudents(3);
    const product = bulk.catalog[0] as { id: string; title: string };
    const half = chosen.map((student) => `${student.email},${product.id},${student.email.split('@')[0]}`);
    const file = writeCsv(bulk.dir, 'sales-twice.csv', ['student,product_id,nome', ...half, 'Student,Product_ID,Nome', ...half]);
    const env = ownEnv();
    const refused = await members(env, ['sync', '--file', file, '--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('or pass --ignore-extra-columns to ignore them');
    const read = await members(env, ['sync', '--file', file, '--dry-run', '--ignore-extra-columns', '--add-only', '-o', 'json']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain(`ignored (--ignore-extra-columns): "nome"`);
    expect(read.stderr).toContain(`the header of ${file} was found again at line 5 and skipped`);
    expect(read.stderr).toContain('3 duplicate rows ignored (the same as an earlier row, cell for cell: lines 6, 7, 8)');
    const plan = JSON.parse(read.stdout) as Array<{ line: number | null }>;
    expect(plan.every((change) => change.line === null || change.line <= 4)).toBe(true);
  }, 60_000);

  it('--dry-run prints the commands and sends nothing; --first 2 is a canary, the rest follows without it', async () => {
    const chosen = someStudents(5);
    const file = writeCsv(bulk.dir, 'canary.csv', ['E-mail,Pontos', ...chosen.map((student, index) => `${student.email},${index + 1}`)]);
    const env = ownEnv();
    await bulk.settleAndReset();
    const dry = await members(env, ['each', file, '--dry-run', '--', 'scores', 'set', '{E-mail}', '{Pontos}']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')[1]).toBe(`2     members scores set ${chosen[0]?.email} 1`);
    expect(await stats(bulk.sandbox)).toEqual({});
    const canary = await members(env, ['each', file, '--yes', '--first', '2', '-o', 'json', '--', 'scores', 'set', '{E-mail}', '{Pontos}']);
    expect(canary.code, canary.stderr).toBe(0);
    expect((JSON.parse(canary.stdout) as unknown[]).length).toBe(2);
    expect(canary.stderr).toContain('2 of 5 rows: 2 done, 0 skipped, 0 failed');
    expect(canary.stderr).toContain('3 not run: --first 2; run the same command again for the rest');
    const rest = await members(env, ['each', file, '--yes', '-o', 'json', '--', 'scores', 'set', '{E-mail}', '{Pontos}']);
    expect(rest.code, rest.stderr).toBe(0);
    expect((JSON.parse(rest.stdout) as Array<{ result: string }>).map((row) => row.result)).toEqual(['skipped', 'skipped', 'done', 'done', 'done']);
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(5);
    // The canary and the rest are one run: one id on the five changes, one record of the run once every row is done.
    const runIds = [...new Set(logOf(env).filter((record) => record.action === 'scores.set').map((record) => record.run_id))];
    expect(runIds).toHaveLength(1);
    expect(canary.stderr).toContain(`run ${runIds[0]}: members undo`);
    expect(logOf(env).filter((record) => record.action === 'bulk').map((record) => [record.id, record.counts])).toEqual([[runIds[0], { done: 5, skipped: 0, failed: 0 }]]);
  }, 60_000);
});

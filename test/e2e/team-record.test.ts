/**
 * The team record end to end (issue 36), through the binary: two config
 * directories (two machines of the desk) on one PostgreSQL record started
 * for the test (test/helpers/postgres.ts), against `members sandbox`. A
 * revokes, B sees it and undoes it; two syncs of one file at once (one
 * exits 10, nothing applied twice); B's undo of a run meeting A's lease; the database killed mid-run (exit 11,
 * the summary printed) and a re-run that completes the run exactly once;
 * product counts kept by one machine answer another's --compare (issue 38).
 * Every test has a sandbox, a database of the file's cluster and two machines
 * of its own, and makes the changes it reads: they pass in any order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { holdNext, ndjson, spawnMembers, stats, useBulkSandbox, waitFor, writeCsv, type Student } from './bulk-helpers.js';
import { run, tempDir, type RunResult } from './harness.js';
import { hasPostgres } from '../helpers/postgres.js';
import { usePostgresPerTest } from '../helpers/test-postgres.js';
import { MIGRATIONS } from '../../src/audit/postgres-record.js';

interface Change { id: string; user: string; host?: string; command?: string; action: string; result: string; student?: string; student_id?: string; product_id?: string; run_id?: string; undoes?: string }

const withPostgres = hasPostgres();

describe.runIf(withPostgres)('a team record shared by two machines', () => {
  const b = useBulkSandbox(['--students', '120', '--seed', '36', '--latency', '20ms'], { each: true });
  const pg = usePostgresPerTest();
  let machineA: Record<string, string>;
  let machineB: Record<string, string>;
  const as = (env: Record<string, string>) => (args: string[], input?: string) => run(args, { env, input });

  beforeEach(async () => {
    const { MEMBERS_TOKEN: token, MEMBERS_BASE_URL: baseUrl, ...rest } = b.sandbox.env;
    // A: a stored profile that uses the team record (`record use`); B: the same record for one run at a time (MEMBERS_RECORD_URL).
    machineA = { ...rest, MEMBERS_CONFIG_DIR: tempDir('members-a-'), TZ: 'UTC' };
    machineB = { ...b.sandbox.env, MEMBERS_CONFIG_DIR: tempDir('members-b-'), MEMBERS_RECORD_URL: pg.url, TZ: 'UTC' };
    const login = await as(machineA)(['auth', 'login', '--base-url', baseUrl as string, '--token-stdin', '--no-verify', '--insecure-storage'], `${token}\n`);
    expect(login.code, login.stderr).toBe(0);
    // B's first command creates the tables (MEMBERS_RECORD_URL: no profile needed).
    const status = await as(machineB)(['record', 'status', '-o', 'json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ home: 'postgres', source: 'MEMBERS_RECORD_URL', answers: true, schema: MIGRATIONS.length, changes: 0 });
  });

  const student = (filter: (candidate: Student) => boolean) => {
    const found = b.students.find(filter);
    if (!found) throw new Error('no such student in the sandbox');
    return found;
  };
  const active = (candidate: Student) => (candidate.subscriptions ?? []).filter((sub) => sub.active === 1);
  /** A's stored profile keeps its change record in the test's team record from now on. */
  const teamRecordOnA = async () => {
    const use = await as(machineA)(['record', 'use', pg.url]);
    expect(use.code, use.stderr).toBe(0);
    return use;
  };
  /** B's add-only sync of the second product: its holders, and 30 students without it (`taken`), who get it. */
  const syncOfSecondProduct = () => {
    const product = b.catalog[1]?.id as string;
    const taken = b.students.filter((candidate) => !(candidate.subscriptions ?? []).some((sub) => sub.product_id === product)).slice(0, 30);
    const holders = b.students.filter((candidate) => active(candidate).some((sub) => sub.product_id === product));
    const file = writeCsv(b.dir, 'sync.csv', ['student', ...holders.map((holder) => holder.email), ...taken.map((candidate) => candidate.email)]);
    return { product, taken, args: ['sync', '--file', file, '--product', product, '--add-only', '--yes', '--concurrency', '1', '-o', 'ndjson'] };
  };

  it('A\'s history moves to the team record once, B sees A\'s revoke (user and machine) and undoes it', async () => {
    const a = as(machineA);
    const maria = student((candidate) => active(candidate).length >= 2);
    const [first, second] = active(maria).map((sub) => sub.product_id) as [string, string];
    // A change made before the team record: this machine's history, pushed later.
    expect((await a(['students', 'revoke', maria.email, first, '--yes', '--reason', 'before the team'])).code).toBe(0);

    const use = await teamRecordOnA();
    expect(use.stderr).toContain(`keeps its change record in the team record ${pg.url}`);
    const dry = await a(['record', 'push', '--dry-run']);
    expect(dry.stderr).toMatch(/^1 change of 1 change in .* would be copied/m);
    expect((await a(['record', 'push'])).stderr).toMatch(/Copied 1 change of 1 change/);
    expect((await a(['record', 'push'])).stderr).toMatch(/Copied 0 changes of 1 change .*\(1 there already\)/);

    const revoke = await a(['students', 'revoke', maria.email, second, '--yes', '--reason', 'refund #771']);
    expect(revoke.code, revoke.stderr).toBe(0);

    const bee = as(machineB);
    const history = await bee(['history', '--student', maria.email, '-o', 'json']);
    expect(history.code, history.stderr).toBe(0);
    const changes = JSON.parse(history.stdout) as Change[];
    expect(changes.map((change) => [change.action, change.product_id])).toEqual([['revoke', second], ['revoke', first]]);
    expect(changes[0]?.host).toBeTruthy();

    const show = await bee(['students', 'show', maria.email, '-o', 'json']);
    expect((JSON.parse(show.stdout) as { history: Change[] }).history[0]?.id).toBe(changes[0]?.id);

    const undone = await bee(['undo', changes[0]?.id as string, '--yes', '--reason', 'wrong student']);
    expect(undone.code, undone.stderr).toBe(0);
    const after = JSON.parse((await a(['history', '--limit', '1', '-o', 'json'])).stdout) as Change[];
    expect(after[0]).toMatchObject({ action: 'undo', undoes: changes[0]?.id });

    const status = await a(['record', 'status', '-o', 'json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ home: 'postgres', source: 'profile', answers: true, schema: MIGRATIONS.length, changes: 3 });
    expect(await pg.sql('SELECT count(*) FROM members_changes')).toBe('3\n');
  });

  it('gives one of two syncs of one file the lease: the other exits 10 naming it, and nothing is applied twice', async () => {
    const { product, taken, args } = syncOfSecondProduct();
    await teamRecordOnA();
    const before = await stats(b.sandbox);
    // The first sync's first grant is held by the server: its lease, taken before it read, is certainly held meanwhile.
    const grant = await holdNext(b.sandbox, { method: 'POST', route: '/api/v1/students/{id}/products' });
    const first = spawnMembers(args, machineB);
    await grant.held();
    expect(await pg.sql('SELECT count(*) FROM members_leases')).toBe('1\n');
    const second = await as(machineA)(args);
    await grant.release();
    expect(second.code, second.stderr).toBe(10);
    expect(second.stderr).toMatch(/another run holds the lease on product .* \(members sync, pid \d+\).*nothing was sent.*members lock break l[0-9a-f]{8} --reason TEXT/);
    const { code } = await first.exited;
    expect(code, first.output().stderr).toBe(0);
    const grants = (await stats(b.sandbox))['POST /api/v1/students/{id}/products'] ?? 0;
    expect(grants - (before['POST /api/v1/students/{id}/products'] ?? 0)).toBe(taken.length);
    expect(await pg.sql('SELECT count(*) FROM members_leases')).toBe('0\n');
    expect(await pg.sql(`SELECT count(*) FROM members_changes WHERE record->>'action' = 'grant' AND record->>'product_id' = '${product}'`)).toBe(`${taken.length}\n`);
  });

  it('B\'s undo of its sync meets A\'s bulk run on its product: exit 10 naming it, nothing sent; once A is done, the undo goes through', async () => {
    const { product, args } = syncOfSecondProduct();
    await teamRecordOnA();
    const synced = await as(machineB)(args);
    expect(synced.code, synced.stderr).toBe(0);
    const sync = (JSON.parse((await as(machineB)(['history', '-o', 'json'])).stdout) as Change[]).find((line) => line.action === 'bulk' && line.command === 'sync')!;
    const granted = Number(await pg.sql(`SELECT count(*) FROM members_changes WHERE record->>'run_id' = '${sync.id}' AND record->>'action' = 'grant'`));
    expect(granted).toBeGreaterThan(0);
    // Past the 30 the sync granted it to.
    const other = b.students.filter((candidate) => !(candidate.subscriptions ?? []).some((sub) => sub.product_id === product))[35]!;
    const file = writeCsv(b.dir, 'a-grant.csv', ['student,product_id', `${other.email},${product}`]);
    // A's run, its grant held by the server: its lease on the product, in the team record, is certainly held meanwhile.
    const grant = await holdNext(b.sandbox, { method: 'POST', route: '/api/v1/students/{id}/products' });
    const first = spawnMembers(['students', 'grant', '--file', file, '--yes'], machineA);
    await grant.held();
    const before = (await stats(b.sandbox))['DELETE /api/v1/students/{id}/products/{product_id}'] ?? 0;
    const refused = await as(machineB)(['undo', sync.id, '--yes']);
    expect(refused.code, refused.stderr).toBe(10);
    expect(refused.stderr).toMatch(/another run holds the lease on product .*\(members students grant --file, pid \d+\).*nothing was sent/);
    expect((await stats(b.sandbox))['DELETE /api/v1/students/{id}/products/{product_id}'] ?? 0).toBe(before);
    await grant.release();
    expect((await first.exited).code, first.output().stderr).toBe(0);

    const undone = await as(machineB)(['undo', sync.id, '--yes', '-o', 'ndjson']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(ndjson<{ result: string }>(undone.stdout).filter((row) => row.result === 'undone')).toHaveLength(granted);
    expect(await pg.sql('SELECT count(*) FROM members_leases')).toBe('0\n');
  });

  it('stops a run whose record is lost mid-run (exit 11, its summary printed), and a re-run completes it once', async () => {
    const product = b.catalog[2]?.id as string;
    const rows = b.students.filter((candidate) => !(candidate.subscriptions ?? []).some((sub) => sub.product_id === product)).slice(40, 70);
    const file = writeCsv(b.dir, 'grant.csv', ['student,product_id', ...rows.map((row) => `${row.email},${product}`)]);
    const before = (await stats(b.sandbox))['POST /api/v1/students/{id}/products'] ?? 0;
    const args = ['students', 'grant', '--file', file, '--yes', '--concurrency', '1', '-o', 'ndjson'];
    const grant = spawnMembers(args, machineB);
    await waitFor(async () => Number(await pg.sql(`SELECT count(*) FROM members_changes WHERE record->>'product_id' = '${product}'`)) >= 3);
    await pg.kill();
    const stopped = await grant.exited;
    const { stderr } = grant.output();
    expect(stopped.code, stderr).toBe(11);
    // The record's URL: this test's database of the cluster.
    expect(stderr).toContain(`the team record ${pg.url} cannot be reached or written`);
    expect(stderr).toMatch(/cannot be reached or written.*members record status/);
    expect(stderr).toMatch(/rows? processed|granted/);
    await pg.start();
    const again = await run(args, { env: machineB });
    expect(again.code, again.stderr).toBe(0);
    const results = ndjson<{ result: string }>(again.stdout);
    expect(results.length).toBe(rows.length);
    const sent = ((await stats(b.sandbox))['POST /api/v1/students/{id}/products'] ?? 0) - before;
    expect(sent).toBe(rows.length);
    // Nothing lost from the record: the change whose outcome the lost database missed was checked by the re-run (from its intent row).
    expect(await pg.sql(`SELECT count(DISTINCT record->>'student_id') || ' ' || count(*) FROM members_changes WHERE record->>'action' = 'grant' AND record->>'product_id' = '${product}'`))
      .toBe(`${rows.length} ${rows.length}\n`);
    expect(await pg.sql('SELECT count(*) FROM members_intents')).toBe('0\n');
  });

  it('--forget erases the person from the team record too, the forget\'s own reason included', async () => {
    const gone = student((candidate) => active(candidate).length >= 1 && candidate.email.length > 8);
    const product = active(gone)[0]?.product_id as string;
    const bee = as(machineB);
    expect((await bee(['students', 'revoke', gone.email, product, '--yes', '--reason', `asked by ${gone.email}`])).code).toBe(0);
    expect(await pg.sql('SELECT count(*) FROM members_changes WHERE record::text LIKE $$%' + gone.email + '%$$')).not.toBe('0\n');
    const forget = await bee(['students', 'delete', gone.email, '--forget', '--yes', '--reason', `LGPD request of ${gone.email}`]);
    expect(forget.code, forget.stderr).toBe(0);
    expect(forget.stderr).toMatch(/Forgot student .* in the team record/);
    const dump = await pg.sql('SELECT record::text FROM members_changes');
    expect(dump).not.toContain(gone.email);
    expect(dump).toContain('[forgotten]');
  });

  it('answers B\'s products list --compare with the counts A kept on the team record, and those pushed from a local file', async () => {
    const fakeClock = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'fake-clock.cjs');
    const on = (env: Record<string, string>, day: string) => as({ ...env, FAKE_NOW: `${day}T12:00:00Z`, NODE_OPTIONS: `--require ${fakeClock}` });
    const { MEMBERS_RECORD_URL: _url, ...alone } = machineB;
    const local = { ...alone, MEMBERS_CONFIG_DIR: tempDir('members-counts-local-') };
    const team = (dir: string) => ({ ...machineB, MEMBERS_CONFIG_DIR: tempDir(dir) });
    type Counts = { product_id?: string; id?: string; active: number; active_then?: number; then?: string };
    const json = (result: RunResult) => {
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as Counts[];
    };

    // September on a machine alone (its local file), pushed to the team record later: each once.
    const september = json(await on(local, '2026-09-01')(['products', 'snapshot', '-o', 'json']));
    const pushing = { ...local, MEMBERS_RECORD_URL: pg.url };
    expect((await on(pushing, '2026-09-02')(['record', 'push', '--dry-run'])).stderr).toContain(`${september.length} product counts of ${september.length} product counts in`);
    expect((await on(pushing, '2026-09-02')(['record', 'push'])).stderr).toContain(`Copied ${september.length} product counts of ${september.length} product counts`);
    expect((await on(pushing, '2026-09-02')(['record', 'push'])).stderr).toContain(`Copied 0 product counts of ${september.length} product counts in`);
    // October: machine A keeps the day's counts on the team record.
    const kept = await on(team('members-counts-a-'), '2026-10-01')(['products', 'snapshot', '-o', 'json']);
    expect(kept.stderr).toContain(`in the team record ${pg.url}`);
    const october = json(kept);
    expect(await pg.sql('SELECT count(*) FROM members_product_counts')).toBe(`${september.length + october.length}\n`);

    // Machine B, which kept nothing itself, compares with both.
    const bee = team('members-counts-b-');
    const then = new Map(october.map((row) => [row.product_id, row.active]));
    const compared = json(await on(bee, '2026-11-20')(['products', 'list', '--compare', '2026-10-15', '-o', 'json']));
    expect(compared.length).toBe(october.length);
    for (const row of compared) expect(row).toMatchObject({ then: '2026-10-01', active_then: then.get(row.id) });
    const earlier = json(await on(bee, '2026-11-20')(['products', 'list', '--compare', '2026-09-30', '-o', 'json']));
    expect(earlier[0]?.then).toBe('2026-09-01');
    // The same machine on its own record has none.
    const own = await on({ ...alone, MEMBERS_CONFIG_DIR: bee.MEMBERS_CONFIG_DIR as string }, '2026-11-20')(['products', 'list', '--compare', '2026-10-15']);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('no snapshot is kept yet');
  });

  it('keeps a password given with the URL out of the stored URL (the file, where no keychain answers), and refuses a newer schema (exit 2)', async () => {
    const { MEMBERS_RECORD_URL: _url, ...env } = machineB;
    const dir = tempDir('members-c-');
    const c = as({ ...env, MEMBERS_CONFIG_DIR: dir });
    expect((await c(['auth', 'login', '--base-url', b.sandbox.url, '--token-stdin', '--no-verify', '--insecure-storage'], `${b.sandbox.apiToken}\n`)).code).toBe(0);
    const withPassword = pg.url.replace('members@', 'members:s3cret@');
    const use = await c(['record', 'use', withPassword]);
    expect(use.code, use.stderr).toBe(0);
    expect(use.stderr).toContain('its password in the config file');
    expect(use.stderr).not.toContain('s3cret');
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, { record_url?: string; record_password?: string }> };
    expect(Object.values(config.profiles)[0]).toMatchObject({ record_url: pg.url, record_password: 's3cret' });
    const status = JSON.parse((await c(['record', 'status', '-o', 'json'])).stdout) as { where: string; source: string };
    expect(status).toMatchObject({ source: 'profile', where: pg.url });

    await pg.sql('UPDATE members_schema SET version = 99');
    try {
      const refused = await c(['record', 'status']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`has schema version 99, newer than this members knows (${MIGRATIONS.length}): a newer members wrote it. Upgrade members`);
    } finally {
      await pg.sql(`UPDATE members_schema SET version = ${MIGRATIONS.length}`);
    }
    const back = await c(['record', 'use', 'local']);
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse((await c(['record', 'status', '-o', 'json'])).stdout)).toMatchObject({ home: 'local', answers: true, schema: null });
  });
});

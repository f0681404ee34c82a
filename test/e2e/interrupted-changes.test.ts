/**
 * The change record survives any interruption (issue 27), through the built
 * binary against the sandbox: Ctrl-C, SIGTERM and SIGHUP during a change wait
 * for it and record it (exit 130); a second Ctrl-C, or SIGKILL, leaves an
 * intent that the next `members history` checks on the server; at any kill
 * point, every change the server applied is in the history exactly once. A
 * renewal whose grant is refused puts the old subscription back.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/log.js';
import { run, sandboxGet, startSandbox, tempDir, type SandboxProcess } from './harness.js';
import { allStudents, products, settled, spawnMembers, stats, waitFor, writeCsv, type Product, type Student } from './bulk-helpers.js';

let sandbox: SandboxProcess;
let students: Student[];
let catalog: Product[];
let dirs: string;
beforeAll(async () => {
  sandbox = await startSandbox(['--students', '300', '--latency', '40ms']);
  [students, catalog] = await Promise.all([allStudents(sandbox), products(sandbox)]);
  dirs = tempDir('members-interrupted-');
});
afterAll(() => sandbox?.stop());

const GRANTS = '/api/v1/students/{id}/products';
const ONE_PRODUCT = '/api/v1/students/{id}/products/{product_id}';

/** A config directory of its own: its log holds only this test's changes. */
let configs = 0;
const ownEnv = () => ({ ...sandbox.env, MEMBERS_CONFIG_DIR: join(dirs, `c${configs++}`) });
const members = (env: Record<string, string>, args: string[]) => run(args, { env });

async function script(body: object): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/script`, {
    method: 'POST', headers: { authorization: `Bearer ${sandbox.apiToken}`, 'content-type': 'application/json', 'user-agent': 'e2e' }, body: JSON.stringify(body),
  });
  expect(response.status).toBe(204);
}

interface Held { id: string | number; active: number; status: string; accession_date: string; expiration_date: string | null }
async function held(studentId: string, productId: string): Promise<Held | undefined> {
  const { status, body } = await sandboxGet<{ data: Held }>(sandbox, `/api/v1/students/${studentId}/products/${productId}`);
  return status === 200 ? body.data : undefined;
}

/** Students that do not hold the product, each handed out once in the file. */
let taken = 0;
function freshStudents(product: Product, count: number): Student[] {
  const free = students.filter((student) => !(student.subscriptions ?? []).some((sub) => sub.product_id === product.id));
  const chosen = free.slice(taken, taken + count);
  taken += count;
  expect(chosen).toHaveLength(count);
  return chosen;
}

const intents = (env: Record<string, string>) => {
  const dir = join(env.MEMBERS_CONFIG_DIR as string, 'audit-intents');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const logOf = (env: Record<string, string>): AuditRecord[] => {
  const file = join(env.MEMBERS_CONFIG_DIR as string, 'audit.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord) : [];
};
const history = async (env: Record<string, string>, ...args: string[]) => {
  const { code, stdout, stderr } = await members(env, ['history', '-o', 'json', ...args]);
  expect(code, stderr).toBe(0);
  return { records: JSON.parse(stdout) as AuditRecord[], stderr };
};
/** Every change `members history` knows of: a run is one entry there, its changes under `--run ID`. */
const changes = async (env: Record<string, string>): Promise<AuditRecord[]> => {
  const { records } = await history(env);
  const runs = await Promise.all(records.filter((record) => record.action === 'bulk').map((run) => history(env, '--run', run.id)));
  return [...records.filter((record) => record.action !== 'bulk'), ...runs.flatMap((run) => run.records)];
};

/** Every change the server applied is in the history exactly once, as applied; none it did not apply is. */
async function expectHistoryTrue(env: Record<string, string>, chosen: Student[], product: Product, context: string): Promise<void> {
  // A request the killed run had sent lands before the history checks its intent.
  await settled(sandbox);
  // A change killed in flight and not found applied stays pending until its request can no longer be on its way (SLOW_SERVER).
  await waitFor(async () => {
    await history(env);
    return intents(env).length === 0;
  }, 40_000);
  const records = await changes(env);
  for (const student of chosen) {
    const now = await held(student.id, product.id);
    const applied = records.filter((record) => record.student_id === student.id && record.product_id === product.id && record.result === 'granted');
    expect(applied.length, `${context}: ${student.id} is ${now ? '' : 'not '}held; records: ${JSON.stringify(records.filter((r) => r.student_id === student.id))}`)
      .toBe(now ? 1 : 0);
  }
  expect(intents(env), context).toEqual([]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A change killed in flight is pending for --timeout × 4 attempts: a short timeout keeps the wait for its check short. */
const SLOW_SERVER = ['--timeout', '3s'];

describe('a single change interrupted', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s while the grant is in flight: its answer is waited for and recorded, exit 130', async (signal) => {
    const product = catalog[0] as Product;
    const [student] = freshStudents(product, 1) as [Student];
    const env = ownEnv();
    await script({ method: 'POST', route: GRANTS, delay_ms: 800, after_change: true });
    const child = spawnMembers(['students', 'grant', student.id, product.id, '--yes'], env);
    // Applied by the server, its answer held: the request is in flight.
    await waitFor(async () => (await held(student.id, product.id)) !== undefined);
    child.child.kill(signal);
    const { code } = await child.exited;
    const { stderr } = child.output();
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('Stopping: waiting for the answer to the change in flight, to record it');
    expect(stderr).toContain('error: interrupted after the change in flight was answered; it is recorded (`members history`)');
    expect(logOf(env).map((r) => [r.action, r.student_id, r.product_id, r.result])).toEqual([['grant', student.id, product.id, 'granted']]);
    expect(intents(env)).toEqual([]);
  });

  it('a second Ctrl-C quits at once; the next members history checks the change on the server and records it once', async () => {
    const product = catalog[0] as Product;
    const [student] = freshStudents(product, 1) as [Student];
    const env = ownEnv();
    await script({ method: 'POST', route: GRANTS, delay_ms: 5000, after_change: true });
    const child = spawnMembers(['students', 'grant', student.id, product.id, '--yes'], env);
    await waitFor(async () => (await held(student.id, product.id)) !== undefined);
    child.child.kill('SIGINT');
    await waitFor(async () => child.output().stderr.includes('Stopping'));
    child.child.kill('SIGINT');
    expect(await child.exited).toEqual({ code: null, signal: 'SIGINT' });
    expect(logOf(env)).toEqual([]);
    expect(intents(env)).toHaveLength(1);

    const first = await history(env);
    expect(first.stderr).toContain('1 change from an interrupted run was checked: applied\n');
    expect(first.records.map((r) => [r.action, r.student_id, r.result, typeof r.checked])).toEqual([['grant', student.id, 'granted', 'string']]);
    const again = await history(env);
    expect(again.stderr).not.toContain('interrupted run');
    expect(again.records).toEqual(first.records);
  });

  it.each(['a second Ctrl-C', 'SIGKILL'] as const)('%s while the server is slow to apply the grant: pending until the server applies it, then applied, and undone', async (how) => {
    const product = catalog[0] as Product;
    const [student] = freshStudents(product, 1) as [Student];
    const env = ownEnv();
    const posts = async () => (await stats(sandbox))[`POST ${GRANTS}`] ?? 0;
    const before = await posts();
    // Held before the handler: the server applies the grant 8 s after it arrived, whatever became of the client.
    await script({ method: 'POST', route: GRANTS, delay_ms: 8000 });
    const child = spawnMembers(['students', 'grant', student.id, product.id, '--yes'], env);
    await waitFor(async () => (await posts()) > before);
    if (how === 'SIGKILL') child.child.kill('SIGKILL');
    else {
      child.child.kill('SIGINT');
      await waitFor(async () => child.output().stderr.includes('Stopping'));
      child.child.kill('SIGINT');
    }
    expect((await child.exited).signal).toBe(how === 'SIGKILL' ? 'SIGKILL' : 'SIGINT');
    expect(intents(env)).toHaveLength(1);

    // Checked at once: the server does not show it yet, and its request may still be on its way (--timeout 30 s × 4 attempts).
    const early = await history(env);
    expect(early.stderr).toContain('1 change from an interrupted run is still in flight on the server and will be checked later');
    expect(early.stderr).not.toContain('not applied');
    expect(early.records).toEqual([]);
    expect(intents(env)).toHaveLength(1);
    const pendingId = (intents(env)[0] as string).replace(/\.json$/, '');
    const tooSoon = await members(env, ['undo', pendingId, '--yes']);
    expect(tooSoon.code).toBe(2);
    expect(tooSoon.stderr).toContain(`change ${pendingId} (from an interrupted run) is still in flight on the server, not recorded yet: it is checked by a command run in`);

    await waitFor(async () => (await held(student.id, product.id)) !== undefined);
    const late = await history(env);
    expect(late.stderr).toContain('1 change from an interrupted run was checked: applied\n');
    expect(late.records.map((r) => [r.action, r.student_id, r.result])).toEqual([['grant', student.id, 'granted']]);
    expect(intents(env)).toEqual([]);
    const undo = await members(env, ['undo', late.records[0]?.id as string, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await held(student.id, product.id)).toBeUndefined();
  }, 30_000);

  it('SIGKILL, SIGTERM or SIGHUP at random points of single grants: history holds each change the server applied exactly once', async () => {
    const product = catalog[1] as Product;
    const signals = ['SIGKILL', 'SIGTERM', 'SIGHUP', 'SIGKILL', 'SIGKILL', 'SIGTERM'] as const;
    const chosen = freshStudents(product, signals.length);
    const env = ownEnv();
    const points: string[] = [];
    for (const [index, signal] of signals.entries()) {
      const student = chosen[index] as Student;
      // 40 ms a request: the points fall before, during and after the resolution, the check and the POST.
      const after = Math.floor(Math.random() * 500);
      points.push(`${signal}@${after}ms`);
      const child = spawnMembers(['students', 'grant', student.id, product.id, '--yes', ...SLOW_SERVER], env);
      await sleep(after);
      child.child.kill(signal);
      const { code, signal: by } = await child.exited;
      // Before Node has run a line of ours (a busy machine's first 100 ms), any signal kills as the system does.
      expect(code === 0 || (signal !== 'SIGKILL' && code === 130) || by === signal, `${points.join(' ')}: exit ${code} by ${by}`).toBe(true);
    }
    await expectHistoryTrue(env, chosen, product, points.join(' '));
  }, 90_000);
});

describe('a bulk run interrupted', () => {
  it.each(['SIGKILL', 'SIGTERM', 'SIGHUP'] as const)('%s at a random point: every row the server applied is in the history once', async (signal) => {
    const product = catalog[2] as Product;
    const chosen = freshStudents(product, 40);
    const env = ownEnv();
    const file = writeCsv(dirs, `bulk-${signal}.csv`, ['student,product_id', ...chosen.map((student) => `${student.id},${product.id}`)]);
    const out = join(dirs, `results-${signal}`, 'results.csv');
    mkdirSync(join(dirs, `results-${signal}`));
    const posts = async () => (await stats(sandbox))[`POST ${GRANTS}`] ?? 0;
    const before = await posts();
    const child = spawnMembers(['students', 'grant', '--file', file, '--yes', '--concurrency', '4', '-o', 'csv', '--out', out, ...SLOW_SERVER], env);
    const rows = 1 + Math.floor(Math.random() * 30);
    await waitFor(async () => (await posts()) >= before + rows);
    child.child.kill(signal);
    const { code } = await child.exited;
    const context = `${signal} after ${rows} POSTs`;
    if (signal !== 'SIGKILL') {
      expect(code, `${context}: ${child.output().stderr}`).toBe(130);
      // The results of what it did, and no temporary file.
      expect(readdirSync(join(dirs, `results-${signal}`))).toEqual(['results.csv']);
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      expect(lines[0]).toBe('line,student,product_id,result,message');
      expect(lines.length, context).toBeGreaterThan(1);
    }
    await expectHistoryTrue(env, chosen, product, context);
    // One run whatever ended it: one entry in the history (a killed one derived from its changes), undone as one.
    const runs = (await history(env)).records.filter((record) => record.action === 'bulk');
    expect(runs.map((record) => [record.command, record.result]), context).toEqual([['students grant --file', 'interrupted']]);
    const undone = await members(env, ['undo', runs[0]?.id as string, '--yes']);
    expect(undone.code, `${context}: ${undone.stderr}`).toBe(0);
    for (const student of chosen) expect(await held(student.id, product.id), context).toBeUndefined();
  }, 90_000);
});

describe('a bulk run\'s results file, whatever stops it', () => {
  const bulkRun = (name: string) => {
    const product = catalog[6] as Product;
    const chosen = freshStudents(product, 12);
    const folder = join(dirs, `out-${name}`);
    mkdirSync(folder);
    const file = writeCsv(dirs, `out-${name}.csv`, ['student,product_id', ...chosen.map((student) => `${student.id},${product.id}`)]);
    const out = join(folder, 'results.csv');
    return { folder, out, args: ['students', 'grant', '--file', file, '--yes', '--concurrency', '2', '-o', 'csv', '--out', out, ...SLOW_SERVER] };
  };
  const posts = async () => (await stats(sandbox))[`POST ${GRANTS}`] ?? 0;

  it('a second Ctrl-C quits at once and leaves no temporary file', async () => {
    const { folder, args } = bulkRun('double-sigint');
    const env = ownEnv();
    const before = await posts();
    await script({ method: 'POST', route: GRANTS, delay_ms: 3000, times: 2 });
    const child = spawnMembers(args, env);
    await waitFor(async () => (await posts()) > before);
    child.child.kill('SIGINT');
    await waitFor(async () => child.output().stderr.includes('Stopping'));
    expect(child.output().stderr).toContain('(Ctrl-C again to quit at once;');
    child.child.kill('SIGINT');
    expect((await child.exited).signal).toBe('SIGINT');
    expect(readdirSync(folder)).toEqual([]);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)('%s then a second signal: the notice names it, and no temporary file is left', async (signal) => {
    const { folder, args } = bulkRun(`double-${signal}`);
    const env = ownEnv();
    const before = await posts();
    await script({ method: 'POST', route: GRANTS, delay_ms: 3000, times: 2 });
    const child = spawnMembers(args, env);
    await waitFor(async () => (await posts()) > before);
    child.child.kill(signal);
    await waitFor(async () => child.output().stderr.includes('Stopping'));
    expect(child.output().stderr).toContain(`(${signal} received; a second signal quits at once;`);
    child.child.kill(signal);
    expect((await child.exited).code).toBe(130);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('SIGKILL leaves a temporary file named with the pid; the next run to the same --out removes it', async () => {
    const { folder, out, args } = bulkRun('sigkill');
    const env = ownEnv();
    const before = await posts();
    const child = spawnMembers(args, env);
    await waitFor(async () => (await posts()) > before);
    child.child.kill('SIGKILL');
    await child.exited;
    expect(readdirSync(folder)).toEqual([expect.stringMatching(new RegExp(`^\\.results\\.csv\\.${child.child.pid}\\.[0-9a-f]{12}\\.tmp$`))]);
    const again = await members(env, args);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(folder)).toEqual(['results.csv']);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe('line,student,product_id,result,message');
  });
});

describe('a renewal is one operation', () => {
  /** A student holding the product with access, and its subscription. */
  async function holder(productIndex: number): Promise<{ student: Student; product: Product; old: Held }> {
    const product = catalog[productIndex] as Product;
    for (const student of students.slice(100)) {
      const sub = (student.subscriptions ?? []).find((s) => s.product_id === product.id && s.active === 1);
      if (sub && !usedHolders.has(student.id)) {
        usedHolders.add(student.id);
        return { student, product, old: (await held(student.id, product.id)) as Held };
      }
    }
    throw new Error('no holder');
  }
  const usedHolders = new Set<string>();
  // Some holders' status is not the grant's (refunded, canceled with access): the renewal may reset it (issue 30), these tests are about its two steps.
  const renew = (student: Student, product: Product) => ['students', 'grant', student.id, product.id, '--renew', '--include-status-changes', '--expiration', '2031-06-30', '--yes'];

  it('its grant refused: the old subscription is put back, both steps recorded, exit 5 with the state now', async () => {
    const { student, product, old } = await holder(3);
    const env = ownEnv();
    await script({ method: 'POST', route: GRANTS, status: 422, body: { message: 'The product is closed to new subscriptions.' } });
    const { code, stderr } = await members(env, renew(student, product));
    expect(code, stderr).toBe(5);
    const now = (await held(student.id, product.id)) as Held;
    expect([now.accession_date.slice(0, 10), now.expiration_date?.slice(0, 10) ?? null, now.active]).toEqual([old.accession_date.slice(0, 10), old.expiration_date?.slice(0, 10) ?? null, 1]);
    const until = old.expiration_date ? `until ${old.expiration_date.slice(0, 10)}` : 'and no expiration';
    expect(stderr).toContain(`error: the renewal failed: the server rejected the request (422): The product is closed to new subscriptions. (POST /api/v1/students/${student.id}/products); `
      + `the old subscription was restored with access ${until} (accession ${old.accession_date.slice(0, 10)}); its status is now active`);
    const records = logOf(env);
    expect(records.map((r) => [r.action, r.result])).toEqual([['renew', 'revoked'], ['undo', 'granted']]);
    expect(records[1]?.undoes).toBe(records[0]?.id);
    // In a history table the put-back does not read as a plain grant: its command says what it was.
    expect(records[1]?.command).toBe('students grant (restores the subscription after a failed renewal)');
    const table = await members(env, ['history', '--no-pager']);
    expect(table.stdout).toContain('students grant (restores the subscription after a failed renewal)');
    expect(records[0]?.before).toMatchObject({ id: old.id, status: old.status });
    expect(intents(env)).toEqual([]);
  });

  it('its grant and the put-back refused: what was lost, and the members undo that restores it', async () => {
    const { student, product, old } = await holder(4);
    const env = ownEnv();
    await script({ method: 'POST', route: GRANTS, status: 422, body: { message: 'The product is closed to new subscriptions.' }, times: 2 });
    const { code, stderr } = await members(env, renew(student, product));
    expect(code, stderr).toBe(5);
    expect(await held(student.id, product.id)).toBeUndefined();
    const [revoke] = logOf(env);
    expect(revoke).toMatchObject({ action: 'renew', result: 'revoked' });
    expect(stderr).toContain('putting the old subscription back failed too: the server rejected the request (422): The product is closed to new subscriptions.');
    expect(stderr).toContain(`; student ${student.id} has lost product`);
    expect(stderr).toContain(`\`members undo ${revoke?.id}\` grants it again with those dates`);
    const undo = await members(env, ['undo', revoke?.id as string, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    const now = (await held(student.id, product.id)) as Held;
    expect([now.accession_date.slice(0, 10), now.expiration_date?.slice(0, 10) ?? null]).toEqual([old.accession_date.slice(0, 10), old.expiration_date?.slice(0, 10) ?? null]);
  });

  it('Ctrl-C while the revoke\'s answer is slow: the renewal is finished, recorded once, exit 130', async () => {
    const { student, product } = await holder(5);
    const env = ownEnv();
    const deletes = async () => (await stats(sandbox))[`DELETE ${ONE_PRODUCT}`] ?? 0;
    const before = await deletes();
    await script({ method: 'DELETE', route: ONE_PRODUCT, delay_ms: 800, after_change: true });
    const child = spawnMembers(renew(student, product), env);
    await waitFor(async () => (await deletes()) > before);
    child.child.kill('SIGINT');
    const { code } = await child.exited;
    expect(code, child.output().stderr).toBe(130);
    expect((await held(student.id, product.id))?.expiration_date?.slice(0, 10)).toBe('2031-06-30');
    expect(logOf(env).map((r) => [r.action, r.result])).toEqual([['renew', 'renewed']]);
  });
});

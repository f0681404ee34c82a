/**
 * `members sync` end to end (issue 29), against the default sandbox and the
 * laravel flavor: the plan with every kind of change and exact counts, the
 * caps, an empty file, the modes, --check, saved plans (stale rows, an edited
 * plan, another server), a re-run that sends nothing, and a SIGKILL
 * mid-apply followed by a re-run that applies every change once. The server's
 * own state and request counters are the judges, not only the CLI's output.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdNext, ndjson, settled, spawnMembers, stats, timeless, useBulkSandbox, waitFor, writeCsv, type BulkSandbox } from './bulk-helpers.js';
import { HAS_SCRIPT, terminalSession, type SandboxProcess } from './harness.js';

/** A subscription as `members subscriptions list -o json` prints it (dates read back as calendar dates). */
interface Held {
  product_id: string;
  active: number;
  status: string | null;
  accession_date: string | null;
  expiration_date: string | null;
  student: { id: string; email: string };
}
interface PlanRow { action: string; line: number | null; student: string; student_id: string | null; product_id: string; expiration_date: string | null; note: string | null }
interface AuditRow { id: string; command: string; action: string; result: string; run_id?: string; reason?: string }
interface UndoRow { id: string; action: string; student: string; product_id: string; result: string; message: string }
interface ResultRow { line: number | null; action: string; student: string; product_id: string; result: string; message: string }

const CHANGES = ['POST /api/v1/students/{id}/products', 'DELETE /api/v1/students/{id}/products/{product_id}'];
/** The requests that change something, out of the sandbox's counters. */
const changesIn = (counts: Record<string, number>) => Object.fromEntries(CHANGES.map((key) => [key, counts[key] ?? 0]));
/** A text matched literally inside a RegExp (e-mails hold + and .). */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([key, n]) => [key, n - (before[key] ?? 0)]).filter(([, n]) => n !== 0));

async function post(sandbox: SandboxProcess, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { authorization: `Bearer ${sandbox.apiToken}`, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'members-e2e' },
  });
  await response.text();
  return response.status;
}

/** Every subscription, through the CLI (so that every flavor's dates read the same). */
async function dump(b: BulkSandbox, productId?: string): Promise<Held[]> {
  const { code, stdout, stderr } = await b.members(['subscriptions', 'list', '--all', '-o', 'json', ...(productId ? ['--product', productId] : [])]);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as Held[];
}

/** Who has access to what, with which dates and status: what a sync changes and its undo puts back. */
const access = (subscriptions: Held[]) => subscriptions.filter((held) => held.active === 1)
  .map(({ student, product_id, status, accession_date, expiration_date }) => `${student.id} ${product_id} ${status} ${accession_date} ${expiration_date}`).sort();

const FLAVORS = [['default', []], ['laravel', ['--flavor', 'laravel']]] as const;

describe.each(FLAVORS)('members sync (%s flavor)', (_name, flavorArgs) => {
  const b = useBulkSandbox(['--students', '400', '--seed', '29', '--latency', '10ms', ...flavorArgs]);
  const students = () => b.students;
  const nonHolders = (subscriptions: Held[], count: number, skip = 0) => {
    const holding = new Set(subscriptions.map((held) => held.student.id));
    return students().filter((student) => !holding.has(student.id)).slice(skip, skip + count);
  };
  /** A product with what a test needs, from the ones no earlier test took. */
  const taken = new Set<string>();
  async function productWith(needs: (subscriptions: Held[]) => boolean): Promise<{ id: string; title: string; subscriptions: Held[] }> {
    for (const product of b.catalog) {
      if (taken.has(product.id)) continue;
      const subscriptions = await dump(b, product.id);
      if (needs(subscriptions)) {
        taken.add(product.id);
        return { ...product, subscriptions };
      }
    }
    throw new Error('no product of the sandbox fits');
  }
  const withAccess = (subscriptions: Held[]) => subscriptions.filter((held) => held.active === 1);

  it('plans every kind of change with exact counts, applies them once, a re-run sends nothing, and undo RUN_ID puts the server back', async () => {
    const product = await productWith((subs) => subs.some((h) => h.active === 0) && subs.some((h) => h.active === 1 && h.status === 'canceled')
      && subs.filter((h) => h.active === 1 && h.status === 'active').length >= 4);
    const on = withAccess(product.subscriptions);
    const active = on.filter((held) => held.status === 'active');
    const revoked = active.slice(-2);
    const changed = active[0] as Held;
    const canceled = on.find((held) => held.status === 'canceled') as Held;
    const restored = product.subscriptions.find((held) => held.active === 0) as Held;
    const [newcomer, dated] = nonHolders(product.subscriptions, 2);
    const kept = on.filter((held) => !revoked.includes(held) && held !== changed && held !== canceled);
    const file = writeCsv(b.dir, `every-kind-${_name}.csv`, [
      'student,product_id,accession_date,expiration_date',
      `${newcomer?.email},${product.title},,`,
      `${dated?.id},${product.id},2025-01-15,2031-12-31`,
      `${restored.student.email},${product.id},,2031-06-30`,
      `${changed.student.id},${product.id},,2031-01-31`,
      `${canceled.student.email},${product.id},,2031-02-28`,
      ...kept.map((held, index) => `${index % 2 ? held.student.id : held.student.email.toUpperCase()},${product.id},2001-01-01,${held.expiration_date ?? ''}`),
    ]);
    const before = await dump(b);
    const summary = `Plan for product "${product.title}" (${product.id}): 2 to grant, 1 to restore, 1 to change expiration, 2 to revoke, ${kept.length} already in sync. `
      + '1 expiration change left out: it would reset a status (--include-status-changes to make it).';

    const counted = await stats(b.sandbox);
    const dry = await b.members(['sync', '--file', file, '--dry-run', '--max-revoke', '2', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as PlanRow[];
    expect(plan.map((row) => [row.action, row.line, row.student])).toEqual([
      ['grant', 2, newcomer?.email], ['grant', 3, dated?.id], ['restore', 4, restored.student.email], ['change-expiration', 5, changed.student.id],
      ...plan.slice(4).map((row) => ['revoke', null, row.student]),
    ]);
    expect(plan.slice(4).map((row) => row.student_id).sort()).toEqual(revoked.map((held) => held.student.id).sort());
    expect(plan.map((row) => row.expiration_date)).toEqual([null, '2031-12-31', '2031-06-30', '2031-01-31', null, null]);
    expect(dry.stderr).toContain(`warning: left out: line 6, ${canceled.student.email}, product ${product.id}: expiration ${canceled.expiration_date ?? 'none'} → 2031-02-28 would reset its status (canceled)\n`);
    expect(dry.stderr.trimEnd().split('\n').at(-1)).toBe(summary);
    // The plan read the product list once and the student list once (400 students: 4 pages), and changed nothing.
    expect(diff(await stats(b.sandbox), counted)).toEqual({ 'GET /api/v1/products': 1, 'GET /api/v1/students': 4 });

    const check = await b.members(['sync', '--file', file, '--check', '--max-revoke', '2', '-o', 'ndjson']);
    expect(check.code).toBe(8);
    expect(ndjson<PlanRow>(check.stdout)).toEqual(plan);
    // Drift is the answer --check was asked for: a notice, not an error.
    expect(check.stderr).toContain(`Drift: the platform differs from ${file}: 6 changes would make it match (--check changes nothing; exit 8).`);
    expect(check.stderr).not.toContain('error:');

    const atApply = await stats(b.sandbox);
    const applied = await b.members(['sync', '--file', file, '--yes', '--max-revoke', '2', '--reason', 'nightly', '-o', 'ndjson']);
    expect(applied.code, applied.stderr).toBe(0);
    const results = ndjson<ResultRow>(applied.stdout);
    expect(results.map((row) => [row.line, row.action, row.result])).toEqual([
      [2, 'grant', 'granted'], [3, 'grant', 'granted'], [4, 'restore', 'restored'], [5, 'change-expiration', 'expiration-changed'],
      [null, 'revoke', 'revoked'], [null, 'revoke', 'revoked'],
    ]);
    const lines = timeless(applied.stderr).trimEnd().split('\n');
    expect(lines.at(-2)).toBe('6 changes: 2 granted, 1 restored, 1 expiration changed, 2 revoked, 0 stale, 0 failed in X.Xs');
    const runId = /^Recorded as run (\S+): `members history --run \1` lists its changes, `members undo \1` reverses them\.$/.exec(lines.at(-1) ?? '')?.[1] as string;
    expect(runId).toBeDefined();
    // Each change once: a grant is one POST, a revoke one DELETE, a restore or an expiration change one of each.
    expect(changesIn(diff(await stats(b.sandbox), atApply))).toEqual({ [CHANGES[0] as string]: 4, [CHANGES[1] as string]: 4 });

    const now = new Map((await dump(b, product.id)).map((held) => [held.student.id, held]));
    expect(now.get(newcomer?.id as string)).toMatchObject({ active: 1, expiration_date: null });
    expect(now.get(dated?.id as string)).toMatchObject({ active: 1, accession_date: '2025-01-15', expiration_date: '2031-12-31' });
    expect(now.get(restored.student.id)).toMatchObject({ active: 1, status: 'active', accession_date: restored.accession_date, expiration_date: '2031-06-30' });
    expect(now.get(changed.student.id)).toMatchObject({ active: 1, accession_date: changed.accession_date, expiration_date: '2031-01-31' });
    expect(now.get(canceled.student.id)).toMatchObject({ active: 1, status: 'canceled', expiration_date: canceled.expiration_date });
    for (const held of revoked) expect(now.has(held.student.id)).toBe(false);

    const again = await b.members(['sync', '--file', file, '--yes', '--max-revoke', '2']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(`Plan for product "${product.title}" (${product.id}): 0 to grant, 0 to restore, 0 to change expiration, 0 to revoke, ${kept.length + 4} already in sync.`);
    expect(again.stderr.trimEnd().split('\n').at(-1)).toBe('Nothing to change.');
    const inSync = await b.members(['sync', '--file', file, '--check']);
    expect(inSync.code).toBe(0);
    // The words of the applied run, in every mode.
    expect(inSync.stderr.trimEnd().split('\n').at(-1)).toBe('Nothing to change.');
    expect(inSync.stderr).not.toContain('No changes found');
    const afterRerun = await stats(b.sandbox);
    expect(changesIn(diff(afterRerun, atApply))).toEqual({ [CHANGES[0] as string]: 4, [CHANGES[1] as string]: 4 });

    // One entry in the history, its changes under --run.
    const history = JSON.parse((await b.members(['history', '-o', 'json'])).stdout) as AuditRow[];
    expect(history.filter((record) => record.id === runId)).toMatchObject([{ command: 'sync', action: 'bulk', result: 'completed', reason: 'nightly' }]);
    expect(history.filter((record) => record.run_id === runId)).toEqual([]);
    const listed = JSON.parse((await b.members(['history', '--run', runId, '-o', 'json'])).stdout) as AuditRow[];
    expect(listed.map((record) => record.action).sort()).toEqual(['grant', 'grant', 'renew', 'renew', 'revoke', 'revoke']);

    // One undo for all of it: who has access to what, with which dates and status, is as before the run.
    const undone = await b.members(['undo', runId, '--yes', '-o', 'ndjson']);
    expect(undone.code, undone.stderr).toBe(0);
    const undoRows = ndjson<UndoRow>(undone.stdout);
    expect(undoRows.map((row) => row.result)).toEqual(['undone', 'undone', 'undone', 'undone', 'undone', 'undone']);
    expect(undoRows.map((row) => row.id).sort()).toEqual(listed.map((record) => record.id).sort());
    // The restore's former subscription (without access) cannot come back: said before confirming, and in its result.
    expect(undone.stderr).toContain('1 restore of a subscription without access is undone by removing the subscription: its former status and dates cannot be recreated through the API');
    expect(undoRows.find((row) => row.student === restored.student.email)?.message).toMatch(
      /: the subscription is removed: the one it replaced \(without access; status \S+, accession \S+, expiration \S+\) cannot be recreated through the API, which creates no subscription without access; its status and dates stay in the audit record \S+$/,
    );
    expect(access(await dump(b))).toEqual(access(before));
    const twice = await b.members(['undo', runId, '--yes']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('already undone');

  }, 120_000);

  it('caps: a plan over --max-revoke (or the default) is exit 9 with nothing sent but reads, in --dry-run and --check too', async () => {
    const product = await productWith((subs) => withAccess(subs).length >= 20);
    const on = withAccess(product.subscriptions);
    const cap = Math.floor(on.length / 10);
    const file = writeCsv(b.dir, `cap-${_name}.csv`, ['student,product_id', ...on.slice(cap + 1).map((held) => `${held.student.id},${product.id}`)]);
    const counted = await stats(b.sandbox);
    for (const mode of [['--yes'], ['--dry-run'], ['--check']]) {
      const { code, stdout, stderr } = await b.members(['sync', '--file', file, ...mode]);
      expect(code, stderr).toBe(9);
      expect(stderr).toContain(`error: product "${product.title}" (${product.id}) would lose ${cap + 1} of its ${on.length} holders, over the cap of ${cap} (the default: 10 % of its holders, at most 50); nothing was changed.`);
      if (mode[0] === '--yes') expect(stdout).toBe('');
    }
    const explicit = await b.members(['sync', '--file', file, '--yes', '--max-revoke', String(cap)]);
    expect(explicit.code).toBe(9);
    expect(explicit.stderr).toContain(`over the cap of ${cap} (--max-revoke)`);
    expect(changesIn(diff(await stats(b.sandbox), counted))).toEqual({ [CHANGES[0] as string]: 0, [CHANGES[1] as string]: 0 });
    expect(access(await dump(b, product.id))).toEqual(access(product.subscriptions));
  }, 60_000);

  it('an empty file, or one whose every row is invalid, is exit 2 before any request', async () => {
    const counted = await stats(b.sandbox);
    const empty = writeCsv(b.dir, 'empty.csv', ['student,product_id']);
    const blank = await b.members(['sync', '--file', empty, '--yes']);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toBe(`error: ${empty} has no rows: a sync makes access match the file, so an empty file would revoke everyone in scope; nothing was sent\n`);
    const product = writeCsv(b.dir, 'empty-product.csv', ['student']);
    expect((await b.members(['sync', '--file', product, '--product', 'Python', '--dry-run'])).code).toBe(2);
    const invalid = writeCsv(b.dir, 'invalid.csv', ['student,product_id,expiration_date', 'a@example.com,p1,2025-02-30', ',p1,']);
    const bad = await b.members(['sync', '--file', invalid, '--check']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe([
      'error: line 2: invalid expiration_date "2025-02-30": expected a real calendar date as YYYY-MM-DD',
      'error: line 3: student is empty',
      `error: every row of ${invalid} is invalid; nothing was sent. A sync takes the whole file as the desired state (a row left out would be revoked): fix them and run again`,
      '',
    ].join('\n'));
    expect(diff(await stats(b.sandbox), counted)).toEqual({});
  });

  it('--add-only never revokes; --remove-only never grants; --check is 8 until the platform matches, then 0', async () => {
    const product = await productWith((subs) => withAccess(subs).length >= 10);
    const on = withAccess(product.subscriptions);
    const [newcomer] = nonHolders(product.subscriptions, 1, 5);
    const file = writeCsv(b.dir, `modes-${_name}.csv`, ['student', `${newcomer?.email}`, ...on.slice(1).map((held) => held.student.email)]);
    const args = ['sync', '--file', file, '--product', product.id, '--max-revoke', '1', '-o', 'ndjson'];

    const addOnly = await b.members([...args.filter((arg, i) => arg !== '--max-revoke' && args[i - 1] !== '--max-revoke'), '--add-only', '--yes']);
    expect(addOnly.code, addOnly.stderr).toBe(0);
    expect(ndjson<ResultRow>(addOnly.stdout).map((row) => [row.action, row.result, row.student])).toEqual([['grant', 'granted', newcomer?.email]]);
    expect(addOnly.stderr).toContain('--add-only leaves out 1 revocation.');
    const drift = await b.members([...args, '--check']);
    expect(drift.code).toBe(8);
    expect(ndjson<PlanRow>(drift.stdout).map((row) => [row.action, row.student_id])).toEqual([['revoke', on[0]?.student.id]]);

    const removeOnly = await b.members([...args, '--remove-only', '--yes']);
    expect(removeOnly.code, removeOnly.stderr).toBe(0);
    expect(ndjson<ResultRow>(removeOnly.stdout).map((row) => [row.action, row.result])).toEqual([['revoke', 'revoked']]);
    expect((await b.members([...args, '--check'])).code).toBe(0);
    const now = await dump(b, product.id);
    expect(withAccess(now).map((held) => held.student.id).sort()).toEqual([newcomer?.id, ...on.slice(1).map((held) => held.student.id)].sort());
  }, 60_000);

  it('a saved plan: written 0600 with nothing changed, applied with each row checked (stale, already as planned); an edited plan or another server is refused', async () => {
    const product = await productWith((subs) => withAccess(subs).length >= 10);
    const on = withAccess(product.subscriptions);
    const [first, second, third] = nonHolders(product.subscriptions, 3, 10);
    const file = writeCsv(b.dir, `saved-${_name}.csv`, [
      'student,product_id,expiration_date',
      ...[first, second, third].map((student) => `${student?.id},${product.id},2032-01-01`),
      ...on.slice(1).map((held) => `${held.student.id},${product.id},${held.expiration_date ?? ''}`),
    ]);
    const planFile = join(b.dir, `plan-${_name}.json`);
    const counted = await stats(b.sandbox);
    const saved = await b.members(['sync', '--file', file, '--plan-out', planFile, '--max-revoke', '1', '-o', 'json']);
    expect(saved.code, saved.stderr).toBe(0);
    expect((JSON.parse(saved.stdout) as PlanRow[]).map((row) => row.action)).toEqual(['grant', 'grant', 'grant', 'revoke']);
    expect(saved.stderr).toContain(`Plan written to ${planFile}; nothing was changed. Apply it with \`members sync --apply ${planFile}\`.`);
    expect(statSync(planFile).mode & 0o777).toBe(0o600);
    expect(changesIn(diff(await stats(b.sandbox), counted))).toEqual({ [CHANGES[0] as string]: 0, [CHANGES[1] as string]: 0 });
    const text = readFileSync(planFile, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ kind: 'members-sync-plan', version: 1, base_url: b.sandbox.url, products: [product.id], source: file });

    // Edited, or for another server: refused before any request.
    const edited = join(b.dir, `edited-${_name}.json`);
    writeFileSync(edited, text.replace('"2032-01-01"', '"2033-01-01"'));
    const beforeRefusals = await stats(b.sandbox);
    const tampered = await b.members(['sync', '--apply', edited, '--yes']);
    expect(tampered.code).toBe(2);
    expect(tampered.stderr).toContain(`error: ${edited} was changed after it was written (its hash does not match); nothing was sent.`);
    const elsewhere = await b.members(['sync', '--apply', planFile, '--yes', '--base-url', 'http://127.0.0.1:9']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`error: ${planFile} was made for ${b.sandbox.url} (profile default), but the base URL in force is http://127.0.0.1:9 (profile default); `
      + `nothing was sent. A plan applies only to the server it was planned from: apply it there (--base-url ${b.sandbox.url}), or plan again here: \`members sync --file ${file} --plan-out ${planFile}\``);
    // The same server under another profile (its URL and token from the environment): another name in the audit log, refused too.
    const otherProfile = await b.members(['-p', 'other', 'sync', '--apply', planFile, '--yes']);
    expect(otherProfile.code).toBe(2);
    expect(otherProfile.stderr).toContain(`error: ${planFile} was made with profile default, but the profile in force is other (the same base URL, ${b.sandbox.url}); nothing was sent.`);
    expect((await b.members(['sync', '--apply', planFile])).code).toBe(2);
    expect(diff(await stats(b.sandbox), beforeRefusals)).toEqual({});

    // Since the plan: the second student got the product as planned, the third another way.
    expect(await post(b.sandbox, `/api/v1/students/${second?.id}/products`, { product_id: product.id, accession_date: '2025-01-01', expiration_date: '2032-01-01' })).toBe(201);
    expect(await post(b.sandbox, `/api/v1/students/${third?.id}/products`, { product_id: product.id, accession_date: '2025-01-01', expiration_date: '2030-01-01' })).toBe(201);
    const applied = await b.members(['sync', '--apply', planFile, '--yes', '-o', 'ndjson']);
    expect(applied.code).toBe(7);
    // Off a terminal the product list is not read: a plan for one product names it by id.
    expect(applied.stderr).toContain(`, for product ${product.id}: 4 changes; each is checked against the state it was planned from.`);
    const results = ndjson<ResultRow>(applied.stdout);
    expect(results.map((row) => [row.action, row.result])).toEqual([['grant', 'granted'], ['grant', 'skipped'], ['grant', 'stale'], ['revoke', 'revoked']]);
    const replan = `plan again: \`members sync --file ${file} --plan-out ${planFile}\``;
    expect(results[2]?.message).toContain(`changed since the plan was made (now access on, status active, expiration 2030-01-01); nothing sent: ${replan}`);
    expect(applied.stderr).toContain(`error: of 4 changes, 1 was stale (changed since it was planned); see their results for the reasons, fix the cause, then ${replan}, then apply the new plan`);
    const now = new Map((await dump(b, product.id)).map((held) => [held.student.id, held]));
    expect(now.get(third?.id as string)?.expiration_date).toBe('2030-01-01');
    expect(now.has(on[0]?.student.id as string)).toBe(false);

    // Applied again: what is done comes back "skipped", nothing sent twice.
    const atRerun = await stats(b.sandbox);
    const rerun = await b.members(['sync', '--apply', planFile, '--yes', '-o', 'ndjson']);
    expect(ndjson<ResultRow>(rerun.stdout).map((row) => row.result)).toEqual(['skipped', 'skipped', 'stale', 'skipped']);
    expect(changesIn(diff(await stats(b.sandbox), atRerun))).toEqual({ [CHANGES[0] as string]: 0, [CHANGES[1] as string]: 0 });
  }, 60_000);

  it.skipIf(!HAS_SCRIPT || _name !== 'default')('at a terminal: the plan is shown, and typing the number of changes applies it', async () => {
    const product = await productWith((subs) => withAccess(subs).length >= 10);
    const on = withAccess(product.subscriptions);
    const [newcomer] = nonHolders(product.subscriptions, 1, 30);
    const file = writeCsv(b.dir, 'terminal.csv', ['student,product_id', `${newcomer?.email},${product.id}`, ...on.slice(1).map((held) => `${held.student.id},${product.id}`)]);
    const session = terminalSession(['sync', '--file', file, '--max-revoke', '1', '--no-color'], { env: b.sandbox.env, columns: 160 });
    await session.waitFor(/Type 2 to confirm:/);
    const screen = session.output();
    // One product: the summary names it, and the table leaves it out.
    expect(screen).toMatch(new RegExp(`│ grant +│ 2 +│ ${escaped(newcomer?.email ?? '')} +│ none `));
    expect(screen).toMatch(new RegExp(`│ revoke +│ +│ ${escaped(on[0]?.student.email ?? '')} +│ on `));
    expect(screen.split('\n').filter((line) => line.includes('│')).join('\n')).not.toContain(product.id);
    expect(screen.replace(/\s+/g, ' ')).toContain(`Plan for product "${product.title}" (${product.id}): 1 to grant, 0 to restore, 0 to change expiration, 1 to revoke,`);
    expect(screen).toContain('Apply 2 changes (1 grant, 1 revoke)? Type 2 to confirm:');
    session.type('2\r');
    expect(await session.exited).toBe(0);
    expect(session.output()).toContain('2 changes: 1 granted, 0 restored, 0 expiration changed, 1 revoked, 0 stale, 0 failed');
    const now = new Set(withAccess(await dump(b, product.id)).map((held) => held.student.id));
    expect(now.has(newcomer?.id as string)).toBe(true);
    expect(now.has(on[0]?.student.id as string)).toBe(false);
  }, 60_000);

  it.skipIf(!HAS_SCRIPT || _name !== 'default')('at an 80-column terminal the plan fits: the product named in the summary, the action whole, the note wrapped by whole words', async () => {
    const product = await productWith((subs) => subs.some((h) => h.active === 0 && h.status !== null && h.status !== 'active')
      && withAccess(subs).some((h) => h.status === 'active'));
    const on = withAccess(product.subscriptions);
    // The shortest e-mails: the student is never cut, so a long one leaves the title less than the 8 characters asserted below.
    const shortest = (held: Held[]) => [...held].sort((a, b) => a.student.email.length - b.student.email.length)[0] as Held;
    const lapsed = shortest(product.subscriptions.filter((h) => h.active === 0 && h.status !== null && h.status !== 'active'));
    const moved = shortest(on.filter((h) => h.status === 'active'));
    const file = writeCsv(b.dir, 'narrow.csv', ['student,product_id,expiration_date',
      `${lapsed.student.email},${product.id},2031-06-30`, `${moved.student.email},${product.id},2031-01-31`,
      ...on.filter((held) => held !== moved).map((held) => `${held.student.id},${product.id},`)]);
    const json = await b.members(['sync', '--file', file, '--dry-run', '-o', 'json']);
    const plan = JSON.parse(json.stdout) as PlanRow[];
    expect(plan.map((row) => row.action)).toEqual(['restore', 'change-expiration']);
    expect(plan[0]?.note).toContain(`status ${lapsed.status} becomes`);

    const session = terminalSession(['sync', '--file', file, '--dry-run', '--no-color'], { env: b.sandbox.env, columns: 80 });
    expect(await session.exited).toBe(0);
    const table = session.output().split(/\r?\n/).filter((line) => line.includes('│'));
    expect(table.length).toBeGreaterThanOrEqual(3);
    for (const line of table) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(table.some((line) => line.includes('│ change-expiration │'))).toBe(true);
    // One product: named above, left out of the table, which leaves the note room to wrap by whole words.
    expect(session.output().replace(/\s+/g, ' ')).toContain(`Plan for product "${product.title}" (${product.id}):`);
    expect(table.join('\n')).not.toContain(product.id);
    expect(table[0]).not.toContain('PRODUCT');
    const squashed = (text: string) => text.replace(/[│\s]/g, '');
    expect(squashed(table.join(''))).toContain(squashed(plan[0]?.note ?? 'a note'));
    expect(table.join('\n')).not.toContain('…');

    // Piped, the table keeps the product: a log without stderr still says which.
    const piped = await b.members(['sync', '--file', file, '--dry-run']);
    expect(piped.stdout.split('\n')[0]).toMatch(/^ACTION +LINE +STUDENT +PRODUCT +PRODUCT ID +ACCESS NOW/);
    expect(piped.stdout).toContain(product.id);

    // Applied at 80 columns, the results fit too: the action and the result whole, the message wrapped, no product.
    const applied = terminalSession(['sync', '--file', file, '--yes', '--no-color'], { env: b.sandbox.env, columns: 80 });
    expect(await applied.exited).toBe(0);
    const lines = applied.output().split(/\r?\n/).filter((line) => line.includes('│'));
    const results = lines.slice(lines.findIndex((line) => /│ RESULT +│/.test(line)));
    expect(results[0]).toMatch(/^│ ACTION +│ STUDENT +│ RESULT +│ MESSAGE +│$/);
    for (const line of results) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(results.some((line) => line.startsWith('│ restore ') && line.includes('│ restored '))).toBe(true);
    expect(results.some((line) => line.startsWith('│ change-expiration │') && line.includes('│ expiration-changed │'))).toBe(true);
  }, 60_000);

  it('a student cell that cannot be a key (a name, a document without doc:) refuses the file: exit 2, no request', async () => {
    const file = writeCsv(b.dir, `names-${_name}.csv`, ['student,product_id', 'Maria Silva,Python Pro', 'RG/1749537-4,Python Pro']);
    const before = await stats(b.sandbox);
    const refused = await b.members(['sync', '--file', file, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('error: line 2: student "Maria Silva" cannot be an id (it has spaces or accents)');
    expect(refused.stderr).toContain('error: line 3: student "RG/1749537-4" cannot be an id (it has a /); a document is written doc:RG/1749537-4');
    expect(diff(await stats(b.sandbox), before)).toEqual({});
  }, 60_000);

  it('a row naming a student not on the platform is not-found: listed with its line, drift for --check, never sent, exit 7 when applied', async () => {
    const product = await productWith((subs) => withAccess(subs).length >= 3);
    const on = withAccess(product.subscriptions);
    const newcomers = nonHolders(product.subscriptions, 5, 40);
    const nobody = `nobody-${_name}@example.com`;
    const file = writeCsv(b.dir, `unknown-${_name}.csv`, ['student,product_id', ...on.map((held) => `${held.student.id},${product.id}`),
      `${nobody},${product.id}`, ...newcomers.map((student) => `${student.email},${product.id}`)]);
    const line = on.length + 2;
    const dry = await b.members(['sync', '--file', file, '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as PlanRow[];
    expect(plan.map((row) => [row.action, row.line, row.student])).toEqual([['not-found', line, nobody], ...newcomers.map((student, i) => ['grant', line + 1 + i, student.email])]);
    expect(plan[0]?.note).toBe(`no student ${nobody} on the platform: never sent (exit 7 when applied); import the student first (members students import), then sync again`);
    expect(dry.stderr).toContain(`, ${on.length} already in sync, 1 row naming a student not on the platform (not-found: never sent).`);
    expect((await b.members(['sync', '--file', file, '--check'])).code).toBe(8);

    const counted = await stats(b.sandbox);
    // One change at a time: the failed not-found row must not stop the changes after it (it did: a failure without an error was taken for a bug).
    const applied = await b.members(['sync', '--file', file, '--yes', '-o', 'ndjson', '--concurrency', '1']);
    expect(applied.code).toBe(7);
    expect(applied.stderr).toContain('6 changes: 5 granted,');
    const results = ndjson<ResultRow>(applied.stdout);
    expect(results.map((row) => [row.line, row.action, row.result])).toEqual([[line, 'not-found', 'failed'], ...newcomers.map((_, i) => [line + 1 + i, 'grant', 'granted'])]);
    expect(results[0]?.message).toBe(plan[0]?.note);
    // The plan's reads and the newcomers' grants: nothing sent, nor looked up, for the student who is not there.
    expect(diff(await stats(b.sandbox), counted)).toEqual({ 'GET /api/v1/products': 1, 'GET /api/v1/students': 4, [CHANGES[0] as string]: 5 });
  }, 60_000);

  it('killed with SIGKILL mid-apply, then run again: every change applied exactly once', async () => {
    const product = await productWith((subs) => nonHolders(subs, 400).length >= 250);
    const newcomers = nonHolders(product.subscriptions, 250);
    const on = withAccess(product.subscriptions);
    const file = writeCsv(b.dir, `kill-${_name}.csv`, ['student,product_id', ...[...on, ...newcomers.map((student) => ({ student }))].map((row) => `${row.student.id},${product.id}`)]);
    const args = ['sync', '--file', file, '--yes', '--concurrency', '4', '-o', 'ndjson'];
    const posts = async () => (await stats(b.sandbox))[CHANGES[0] as string] ?? 0;
    const start = await posts();
    const first = spawnMembers(args, b.sandbox.env);
    await waitFor(async () => (await posts()) >= start + 30);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    // A request written before the kill may still reach the server: wait until it has landed before counting.
    await settled(b.sandbox);
    const killedAt = await posts();
    expect(killedAt - start).toBeLessThan(250);

    const second = await b.members(args);
    expect(second.code, second.stderr).toBe(0);
    const granted = ndjson<ResultRow>(second.stdout).filter((row) => row.result === 'granted').length;
    // The rerun planned only what the first left: every POST of both runs made one grant.
    expect(granted).toBe(250 - (killedAt - start));
    expect((await posts()) - start).toBe(250);
    const now = await dump(b, product.id);
    const holders = new Map<string, number>();
    for (const held of withAccess(now)) holders.set(held.student.id, (holders.get(held.student.id) ?? 0) + 1);
    expect(newcomers.filter((student) => holders.get(student.id) !== 1)).toEqual([]);
    expect((await b.members(['sync', '--file', file, '--check'])).code).toBe(0);
    // The record too holds each grant once, the ones the kill cut short included (checked by the re-run, intent first).
    const log = readFileSync(join(b.sandbox.configDir, 'audit.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRow & { product_id?: string; student_id?: string });
    const grants = log.filter((record) => record.command === 'sync' && record.action === 'grant' && record.product_id === product.id && record.result === 'granted');
    expect(grants.map((record) => record.student_id).sort()).toEqual(newcomers.map((student) => student.id).sort());

    // The killed run wrote no record of its own: it is derived from its changes, one entry in the history, undone as one run.
    const rerunId = /Recorded as run (\S+):/.exec(second.stderr)?.[1];
    const killedId = grants.find((record) => record.run_id !== rerunId)?.run_id as string;
    const killedGrants = grants.filter((record) => record.run_id === killedId);
    expect(killedGrants.length).toBe(killedAt - start);
    const history = JSON.parse((await b.members(['history', '-o', 'json'])).stdout) as Array<AuditRow & { counts?: Record<string, number> }>;
    expect(history.filter((record) => record.id === killedId)).toMatchObject([{ command: 'sync', action: 'bulk', result: 'interrupted', counts: { granted: killedGrants.length } }]);
    expect(history.filter((record) => record.run_id === killedId)).toEqual([]);
    const undone = await b.members(['undo', killedId, '--yes', '-o', 'ndjson']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(ndjson<UndoRow>(undone.stdout).filter((row) => row.result === 'undone').map((row) => row.id).sort()).toEqual(killedGrants.map((record) => record.id).sort());
    const left = new Set(withAccess(await dump(b, product.id)).map((held) => held.student.id));
    expect(killedGrants.filter((record) => left.has(record.student_id as string))).toEqual([]);
    expect(newcomers.filter((student) => !left.has(student.id)).length).toBe(killedGrants.length);
  }, 120_000);

  it('undo RUN_ID reverses a students grant --file or revoke --file run too, leaving a change made since as a conflict', async () => {
    const product = await productWith((subs) => withAccess(subs).length >= 4 && subs.some((held) => held.active === 0));
    const before = await dump(b);
    const lapsed = product.subscriptions.find((held) => held.active === 0) as Held;
    const [first, second] = nonHolders(product.subscriptions, 2, 20);
    const grants = writeCsv(b.dir, `bulk-grant-${_name}.csv`, ['student,product_id,expiration_date',
      `${first?.id},${product.id},2030-01-01`, `${second?.email},${product.id},`, `${lapsed.student.id},${product.id},2031-01-01`]);
    // The lapsed subscription's status is not the grant's (canceled, inactive…): its renewal is asked for explicitly.
    const granted = await b.members(['students', 'grant', '--file', grants, '--renew', '--include-status-changes', '--yes', '-o', 'ndjson']);
    expect(granted.code, granted.stderr).toBe(0);
    const on = withAccess(product.subscriptions).filter((held) => held.status === 'active').slice(0, 2);
    const revokes = writeCsv(b.dir, `bulk-revoke-${_name}.csv`, ['student,product_id', ...on.map((held) => `${held.student.email},${product.id}`)]);
    expect((await b.members(['students', 'revoke', '--file', revokes, '--yes'])).code).toBe(0);
    const runs = (JSON.parse((await b.members(['history', '-o', 'json'])).stdout) as Array<AuditRow & { source?: string }>).filter((record) => record.action === 'bulk');
    const runOf = (source: string) => runs.find((record) => record.source === source)?.id as string;

    // Since the grant run, the second student's subscription was revoked and granted again by hand.
    expect((await b.members(['students', 'revoke', second?.id as string, product.id, '--yes'])).code).toBe(0);
    expect((await b.members(['students', 'grant', second?.id as string, product.id, '--expiration', '2029-01-01'])).code).toBe(0);
    const undoGrants = await b.members(['undo', runOf(grants), '--yes', '-o', 'ndjson']);
    expect(undoGrants.code).toBe(7);
    // Newest first: the lapsed student's renewal, the second student's grant (changed since), the first's.
    expect(ndjson<UndoRow>(undoGrants.stdout).map((row) => [row.action, row.student, row.result])).toEqual([
      ['renew', lapsed.student.id, 'undone'], ['grant', second?.email, 'conflict'], ['grant', first?.id, 'undone'],
    ]);
    const undoRevokes = await b.members(['undo', runOf(revokes), '--yes', '-o', 'ndjson']);
    expect(undoRevokes.code, undoRevokes.stderr).toBe(0);
    expect(ndjson<UndoRow>(undoRevokes.stdout).map((row) => row.result)).toEqual(['undone', 'undone']);

    // Everything is back but the change made by hand (and the renewal of a subscription without access, which the API cannot recreate).
    expect((await b.members(['students', 'revoke', second?.id as string, product.id, '--yes'])).code).toBe(0);
    expect(access(await dump(b))).toEqual(access(before));
  }, 60_000);
  it('the sync-versus-desk race: a renewal made after the sync read the platform is stale, never revoked (exit 7), and nothing is recorded as removed but what was', async () => {
    // The holder that comes first in the student list: on the first page (of 100) the sync reads.
    const order = new Map(students().map((student, index) => [student.id, index]));
    const first = (subs: Held[]) => withAccess(subs).filter((held) => held.status === 'active').sort((x, y) => (order.get(x.student.id) ?? 1e9) - (order.get(y.student.id) ?? 1e9))[0];
    // Any product will do, one an earlier test changed too: its subscriptions are read now.
    const fits = (subs: Held[]) => withAccess(subs).length >= 3 && (order.get(first(subs)?.student.id ?? '') ?? 1e9) < 90;
    const candidates = await Promise.all(b.catalog.map(async (listed) => ({ ...listed, subscriptions: await dump(b, listed.id) })));
    const product = candidates.find((candidate) => fits(candidate.subscriptions)) as (typeof candidates)[number];
    const desk = first(product.subscriptions) as Held;
    const logPath = join(b.sandbox.configDir, 'audit.jsonl');
    const logLines = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n').filter(Boolean) : []);
    const earlier = logLines().length;
    const file = writeCsv(b.dir, `race-${_name}.csv`, ['student', ...withAccess(product.subscriptions).filter((held) => held !== desk).map((held) => held.student.email)]);
    // The sync's first read of the student list is answered once the server has read it, then held until the desk is done.
    const read = await holdNext(b.sandbox, { method: 'GET', route: '/api/v1/students', afterChange: true });
    const sync = spawnMembers(['sync', '--file', file, '--product', product.id, '--max-revoke', '1', '--yes', '-o', 'ndjson'], b.sandbox.env);
    await read.held();
    const renewal = await b.members(['students', 'grant', desk.student.id, product.id, '--renew', '--include-status-changes', '--expiration', '2031-12-31', '--yes']);
    expect(renewal.code, renewal.stderr).toBe(0);
    await read.release();
    const { code } = await sync.exited;
    const { stdout, stderr } = sync.output();

    expect(code, stderr).toBe(7);
    expect(ndjson<ResultRow>(stdout).map((row) => [row.action, row.result, row.student])).toEqual([['revoke', 'stale', desk.student.email]]);
    expect(ndjson<ResultRow>(stdout)[0]?.message).toContain('changed since the plan was made (now access on, status active, expiration 2031-12-31); nothing sent');
    expect(stderr).toContain('0 revoked, 1 stale, 0 failed');
    // The desk's renewal stands.
    expect((await dump(b, product.id)).find((now) => now.student.id === desk.student.id)).toMatchObject({ active: 1, expiration_date: '2031-12-31' });
    // The record holds the desk's renewal (its before: the subscription it really replaced), and no revoke by the sync.
    const log = logLines().slice(earlier).map((line) => JSON.parse(line) as AuditRow & { student_id?: string; before?: { expiration_date?: string | null } });
    const about = log.filter((record) => record.student_id === desk.student.id);
    expect(about.map((record) => [record.command, record.action, record.result])).toEqual([['students grant', 'renew', 'renewed']]);
    expect(about[0]?.before?.expiration_date?.slice(0, 10) ?? null).toBe(desk.expiration_date);
  }, 60_000);
});

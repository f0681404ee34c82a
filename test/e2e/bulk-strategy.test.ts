/**
 * The read plan end to end (issue 28), counted by the sandbox itself: the four cases of the issue, on the
 * default flavor, Laravel's, and simplePaginate pages. What they share, and how a case is judged: bulk-strategy-kit.ts.
 */
import { describe, expect, it } from 'vitest';
import { type SandboxProcess } from './harness.js';
import { allStudents, stateGet, writeCsv, type Student } from './bulk-helpers.js';
import { FLAVORS, compare, dir, grantFile, holdings, snapshotCase, stop, twins } from './bulk-strategy-kit.js';

describe.each(FLAVORS)('--strategy auto against --strategy rows (%s)', (flavor, args) => {
  // A server that counts no pages is asked one more, just past the lookups, to bound the walk.
  const probe = flavor === 'simple' ? 1 : 0;
  it('case 1: 1,000 rows, 800 new, on 2,000 students: the snapshot; case 3: its re-run, the snapshot alone', async () => {
    await snapshotCase(args, flavor, 20, probe);
  }, 120_000);

  it('case 2: 10 rows on 100,000 students: the rows', async () => {
    const pair = await twins(args, 100_000, false);
    pair.students = Array.from({ length: 100_000 });
    const people = (await stateGet<{ data: Student[] }>(pair.rows, '/api/v1/students?per_page=10&page=7')).data;
    const productId = pair.productIds[1] as string;
    const file = writeCsv(dir, `case2-${flavor}.csv`, ['student,product_id', ...people.map((student) => `${student.email},${productId}`)]);
    const { auto, floor } = await compare(pair, file, ['--renew']);
    expect(auto.stderr).toMatch(/\(20 lookups instead of reading (at least 21|1,000) pages\)/);
    expect(auto.requests).toBeLessThanOrEqual(floor + 1 + probe);
    const state = async (sandbox: SandboxProcess) => Promise.all(people.map(async (student) =>
      (await stateGet<{ data: Student }>(sandbox, `/api/v1/students/${student.id}`)).data));
    expect(holdings(await state(pair.auto))).toEqual(holdings(await state(pair.rows)));
    await stop(pair);
  }, 120_000);

  it('case 4: 200 rows on 500 students under a 600/min throttle: no 429, no row lost', async () => {
    const pair = await twins([...args, '--rate-limit', '600/min'], 500);
    const { file, chosen } = grantFile(`case4-${flavor}.csv`, pair, 200, 40);
    const { auto } = await compare(pair, file);
    expect(auto.results.filter((r) => r.result === 'failed')).toEqual([]);
    expect(auto.status429).toBeLessThanOrEqual(auto.requests * 0.01);
    expect(auto.requests).toBe(5 + probe + 160);
    const ids = new Set(chosen.map((student) => student.id));
    const [rowsState, autoState] = await Promise.all([allStudents(pair.rows), allStudents(pair.auto)]);
    expect(holdings(autoState, ids)).toEqual(holdings(rowsState, ids));
    await stop(pair);
  }, 120_000);
});


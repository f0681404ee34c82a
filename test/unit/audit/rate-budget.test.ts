/**
 * The shared rate budget (issue 36, item 6) in both homes: the local files
 * and a real PostgreSQL cluster started for the test (test/helpers/postgres.ts).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRecord, type ChangeRecord } from '../../../src/audit/record.js';
import { openPostgresRecord, PostgresRecord } from '../../../src/audit/postgres-record.js';
import { budgetKey } from '../../../src/api/transport/budget-key.js';
import { hasPostgres, startPostgres, type Postgres } from '../../helpers/postgres.js';

const KEY = budgetKey('https://school.example', 'tok-secret');

function contract(home: string, open: () => Promise<ChangeRecord>, enabled: () => boolean = () => true): void {
  describe.runIf(enabled())(`the rate budget: ${home}`, () => {
    it('hands out consecutive starts to reservations at once, none overlapping, each batch gapMs apart', async () => {
      const [a, b] = [await open(), await open()];
      const now = 1_000_000;
      const firsts = await Promise.all(Array.from({ length: 6 }, (_, index) => (index % 2 ? a : b).budget.reserve({ key: KEY, now, count: 4, gapMs: 50, notBefore: 0 })));
      expect([...firsts].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5].map((index) => now + index * 200));
      await Promise.all([a.close(), b.close()]);
    });

    it('holds the timeline to notBefore (a Retry-After one run was told) and lets a later reservation start at its own now', async () => {
      const record = await open();
      const key = budgetKey('https://other.example', 'tok');
      expect(await record.budget.reserve({ key, now: 5_000, count: 2, gapMs: 100, notBefore: 7_000 })).toBe(7_000);
      expect(await record.budget.reserve({ key, now: 5_100, count: 2, gapMs: 100, notBefore: 0 })).toBe(7_200);
      // A timeline long past is free: no debt is paid back.
      expect(await record.budget.reserve({ key, now: 60_000, count: 1, gapMs: 100, notBefore: 0 })).toBe(60_000);
      // Another token's timeline is its own.
      expect(await record.budget.reserve({ key: KEY + 'x', now: 5_000, count: 1, gapMs: 100, notBefore: 0 })).toBe(5_000);
      await record.close();
    });
  });
}

let local: string | undefined;
contract('local files', async () => {
  local ??= await mkdtemp(join(tmpdir(), 'members-budget-'));
  return new LocalRecord(local);
});
afterAll(async () => local && rm(local, { recursive: true, force: true }));

describe('the local rate budget', () => {
  it('keys its file by a hash: the token is in no file name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'members-budget-'));
    try {
      await new LocalRecord(dir).budget.reserve({ key: KEY, now: 1, count: 1, gapMs: 1, notBefore: 0 });
      const names = await readdir(join(dir, 'rate-budgets'));
      expect(names).toEqual([`${KEY}.json`]);
      expect(KEY).toMatch(/^[0-9a-f]{32}$/);
      expect(KEY).not.toContain('tok-secret');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const withPostgres = hasPostgres();
let server: Postgres | undefined;
contract('PostgreSQL', async () => {
  server ??= await startPostgres();
  return openPostgresRecord(server.url);
}, () => withPostgres);
afterAll(async () => server?.stop());

describe.runIf(withPostgres)('the PostgreSQL rate budget', () => {
  it('answers on its own connection while the records\' writes hold every other one', async () => {
    server ??= await startPostgres();
    const { default: pg } = await import('pg');
    const [records, budget] = [new pg.Pool({ connectionString: server.url, max: 1 }), new pg.Pool({ connectionString: server.url, max: 1 })];
    const record = new PostgresRecord(records, server.url, budget);
    await record.status();
    const held = await records.connect();
    try {
      const key = budgetKey('https://busy.example', 'tok');
      expect(await record.budget.reserve({ key, now: 9_000, count: 4, gapMs: 50, notBefore: 0 })).toBe(9_000);
      expect(records.waitingCount).toBe(0);
    } finally {
      held.release();
      await record.close();
    }
  });
});

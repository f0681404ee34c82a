/**
 * What a bulk run hands to the audit log (`hooks.onFinish`), and how it
 * looks on a terminal (progress bar on stderr, results after it).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, beforeEach } from 'vitest';
import { bulkGrant, type BulkReport } from '../../../src/commands/shared/bulk/commands.js';
import { BulkFailedError } from '../../../src/lib/errors.js';
import { globalOptions } from '../../../src/command-line.js';
import { Session } from '../../../src/session/session.js';
import { fakeIo, type FakeIoOptions } from '../../helpers/fake-io.js';
import { AUTH, BASE, TOKEN, mockCli, products } from '../../helpers/mock-cli.js';

const t = mockCli();
beforeEach(() => products(t.pool()));
const NOT_FOUND = { message: 'Not found.' };
const SUB = {
  active: 1, status: 'active', product_id: 'p1', accession_date: '2024-01-01', expiration_date: null,
  product: { id: 'p1', title: 'Yoga' }, created_at: '2024-01-01 10:00:00',
};

function session(io: FakeIoOptions = {}) {
  const fake = fakeIo({ ...io, env: { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_CONFIG_DIR: t.configDir } });
  const globals = globalOptions({ output: 'json', timeout: '30s', retries: '0', yes: true });
  return { fake, session: new Session(globals, { io: fake.io, dispatcher: t.agent }) };
}

function csvFile(text: string): string {
  const path = join(t.configDir, 'rows.csv');
  writeFileSync(path, text);
  return path;
}

describe('the report for the audit log', () => {
  it('holds every processed row in input order with its ChangeOutcome, request id and reason, and the summary', async () => {
    t.pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(404, NOT_FOUND);
    t.pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST', headers: AUTH })
      .reply(201, { data: SUB }, { headers: { 'x-request-id': 'req-1' } });
    t.pool().intercept({ path: '/api/v1/students/s2/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: SUB });
    const { session: s } = session();
    const reports: BulkReport[] = [];
    const file = csvFile('student,product_id\ns1,p1\ns2,p1\ns3,\n');
    const error = await bulkGrant(s, file, { reason: 'ticket 9', skipInvalid: true, concurrency: '1' }, { onFinish: (report) => void reports.push(report) })
      .then(() => undefined, (caught: unknown) => caught);
    await s.close();

    // The failed (invalid) row makes it exit 7, after the hook ran.
    expect(error).toBeInstanceOf(BulkFailedError);
    expect(reports).toHaveLength(1);
    const report = reports[0] as BulkReport;
    expect(report).toMatchObject({ command: 'students grant', source: file, reason: 'ticket 9', dryRun: false });
    expect(report.summary).toMatchObject({
      rows: 3, processed: 3, interrupted: false, dryRun: false, counts: { granted: 1, revoked: 0, created: 0, skipped: 1, failed: 1 },
    });
    expect(report.outcomes.map(({ line, result, student_id, requestId, reason }) => ({ line, result, student_id, requestId, reason }))).toEqual([
      { line: 2, result: 'granted', student_id: 's1', requestId: 'req-1', reason: 'ticket 9' },
      { line: 3, result: 'skipped', student_id: 's2', requestId: undefined, reason: 'ticket 9' },
      { line: 4, result: 'failed', student_id: undefined, requestId: undefined, reason: 'ticket 9' },
    ]);
    expect(report.outcomes[0]?.change?.subscription).toEqual(SUB);
  });

  it('is not made when nothing was sent (an invalid row)', async () => {
    const { session: s } = session();
    let called = false;
    const error = await bulkGrant(s, csvFile('student,product_id\ns1,\n'), {}, { onFinish: () => void (called = true) })
      .then(() => undefined, (caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^1 invalid row in .*; nothing was sent/);
    expect(called).toBe(false);
  });
});

describe('on a terminal', () => {
  it('draws a progress bar on stderr, then the table and the summary', async () => {
    for (const id of ['s1', 's2']) {
      t.pool().intercept({ path: `/api/v1/students/${id}/products/p1`, method: 'GET', headers: AUTH }).reply(200, { data: SUB });
    }
    const fake = fakeIo({ stdoutTTY: true, stderrTTY: true, columns: 120, env: { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_CONFIG_DIR: t.configDir, NO_COLOR: '1' } });
    const { main } = await import('../../../src/main.js');
    const code = await main(['students', 'grant', '--file', csvFile('student,product_id\ns1,p1\ns2,p1\n')], fake.io, { dispatcher: t.agent });
    expect(code).toBe(0);
    expect(fake.stdout()).toContain('already has access to product "Yoga" (p1); nothing sent');
    expect(fake.stderr()).toContain('0/2');
    expect(fake.stderr().replace(/ in \d+\.\ds/, ' in X.Xs')).toMatch(/2 rows: 0 granted, 2 skipped, 0 failed in X\.Xs \(2 lookups, too few to read the student list instead\)\n$/);
  });
});

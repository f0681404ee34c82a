/**
 * The sandbox at the size of a large school: 100,000 students generated,
 * paged, looked up and reported on.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { call, type Page, type StudentJson } from './helpers.js';

describe('scale', () => {
  it('generates and serves 100,000 students', { timeout: 120_000 }, async () => {
    const box = await startSandbox({ port: 0, students: 100_000 });
    try {
      expect(box.store.students).toHaveLength(100_000);
      const last = box.store.students[99_999];
      const reply = await call<Page<StudentJson>>(box, '/api/v1/students?page=6667&per_page=15');
      expect(reply.body.meta).toMatchObject({ total: 100_000, last_page: 6667 });
      expect(reply.body.data.at(-1)?.id).toBe(last?.id);
      const byEmail = await call<{ data: StudentJson }>(box, `/api/v1/students/email/${encodeURIComponent(last?.email ?? '')}`);
      expect(byEmail.body.data.id).toBe(last?.id);
      const report = await call<{ data: unknown[]; next_cursor: string | null }>(box, `/api/partners/reports/engaged-courses/${box.developerToken}/${box.platformToken}`, {
        token: null,
        headers: { 'user-agent': 'test' },
      });
      expect(report.body.data).toHaveLength(500);
      expect(report.body.next_cursor).not.toBeNull();
    } finally {
      await box.close();
    }
  });
});

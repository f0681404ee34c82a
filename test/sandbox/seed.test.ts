import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { call, type Page, type StudentJson } from './helpers.js';

describe('seeded data', () => {
  it('is deterministic: the same seed gives the same tokens and records, another seed others', async () => {
    const [a, b, c] = await Promise.all([startSandbox({ port: 0, seed: 12, students: 40 }), startSandbox({ port: 0, seed: 12, students: 40 }), startSandbox({ port: 0, seed: 13, students: 40 })]);
    try {
      expect([b.apiToken, b.developerToken, b.platformToken]).toEqual([a.apiToken, a.developerToken, a.platformToken]);
      expect(a.apiToken).toMatch(/^sbx_api_[0-9a-f]{32}$/);
      expect(a.developerToken).toMatch(/^sbx_dev_[0-9a-f]{32}$/);
      expect(a.platformToken).toMatch(/^sbx_plat_[0-9a-f]{32}$/);
      const pageOf = async (box: typeof a) => (await call<Page<StudentJson>>(box, '/api/v1/students?with=subscriptions&per_page=100', { token: box.apiToken })).body.data;
      expect(await pageOf(b)).toEqual(await pageOf(a));
      expect(c.apiToken).not.toBe(a.apiToken);
      expect((await pageOf(c))[0]?.id).not.toBe((await pageOf(a))[0]?.id);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('looks like a Brazilian school: accents, +tags, CPFs, phones, and a few missing fields', async () => {
    const box = await startSandbox({ port: 0, students: 400 });
    try {
      const students = box.store.students;
      expect(students.some((student) => /[ãâáçéêíóôõú]/i.test(`${student.first_name} ${student.last_name ?? ''}`))).toBe(true);
      expect(students.some((student) => student.email.includes('+'))).toBe(true);
      expect(students.some((student) => student.document === null)).toBe(true);
      expect(students.some((student) => student.phone === null)).toBe(true);
      expect(students.some((student) => student.reference_id === null)).toBe(true);
      expect(students.some((student) => student.last_name === null)).toBe(true);
      for (const student of students) {
        expect(student.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        if (student.phone !== null) expect(student.phone).toMatch(/^\+55 \d{2} 9\d{4}-\d{4}$/);
        if (student.document !== null) expect(student.document).toMatch(/^(\d{3}\.\d{3}\.\d{3}-\d{2}|RG\/\d{7}-\d)$/);
        if (student.birth !== null) expect(student.birth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(student.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000000Z$/);
      }
      const emails = students.map((student) => student.email.toLowerCase());
      expect(new Set(emails).size).toBe(emails.length);
    } finally {
      await box.close();
    }
  });

  it('always has canceled and refunded subscriptions that keep access, even with 50 students', async () => {
    for (const seed of [1, 2, 3]) {
      const box = await startSandbox({ port: 0, students: 50, seed });
      try {
        const kept = box.store.subscriptions.filter((subscription) => subscription.active === 1);
        expect(kept.some((subscription) => subscription.status === 'canceled')).toBe(true);
        expect(kept.some((subscription) => subscription.status === 'refunded')).toBe(true);
      } finally {
        await box.close();
      }
    }
  });

  it('gives canceled, refunded and chargeback subscriptions a cancel date, and the others none', async () => {
    const box = await startSandbox({ port: 0, students: 200 });
    try {
      for (const subscription of box.store.subscriptions) {
        expect(subscription.cancel_date === null).toBe(!['canceled', 'refunded', 'chargeback'].includes(subscription.status));
        expect(subscription.accession_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(subscription.expiration_date === null).toBe(box.store.product(subscription.product_id)?.lifetime);
      }
    } finally {
      await box.close();
    }
  });
});

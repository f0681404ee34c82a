/** Looking a student up where the server cannot route the value (Laravel and a "/"): one read of the list per run. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpApi } from '../../../src/api/client.js';
import { HttpClient } from '../../../src/api/transport/http.js';
import { getStudent } from '../../../src/api/endpoints/students.js';
import { NotFoundError } from '../../../src/lib/errors.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';

let sandbox: Sandbox;
let api: HttpApi;
const notices: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, students: 120, flavor: 'laravel', dialect: { paginator: 'simple' } });
  api = new HttpApi(new HttpClient({
    baseUrl: new URL(sandbox.url), token: sandbox.apiToken, timeoutMs: 5_000, retries: 0, userAgent: 'test', secrets: [], notice: (text) => notices.push(text),
  }));
});

afterAll(async () => {
  await api.close();
  await sandbox.close();
});

const listReads = async () => {
  const response = await fetch(`${sandbox.url}/__sandbox/stats`, { headers: { authorization: `Bearer ${sandbox.apiToken}` } });
  return ((await response.json()) as { requests: Record<string, number> }).requests['GET /api/v1/students'] ?? 0;
};

describe('getStudent on a route miss', () => {
  it('finds students whose document holds a "/" by reading the list once, with one notice, for the whole run', async () => {
    const withSlash = sandbox.store.students.filter((student) => student.document?.includes('/'));
    expect(withSlash.length).toBeGreaterThan(1);
    for (const student of withSlash) {
      const found = await getStudent(api, { kind: 'document', value: student.document as string });
      expect(found.id).toBe(student.id);
      expect(found.subscriptions).toBeDefined();
    }
    expect(await listReads()).toBe(2); // 120 students, 100 a page
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/reading the student list once/);
  });

  it('says not found, exit 4, only once the whole list was read', async () => {
    const missing = getStudent(api, { kind: 'document', value: '00.000.000/0000-00' });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow('student with document 00.000.000/0000-00 not found (the whole student list was read)');
  });
});

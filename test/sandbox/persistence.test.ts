import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxState } from '../../src/sandbox/types.js';
import { call } from './helpers.js';

let directory: string;
let dataFile: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'members-sandbox-'));
  dataFile = join(directory, 'state.json');
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function readState(): Promise<SandboxState> {
  return JSON.parse(await readFile(dataFile, 'utf8')) as SandboxState;
}

describe('dataFile', () => {
  it('is seeded and written on first start, with mode 0600', async () => {
    const box = await startSandbox({ port: 0, students: 15, seed: 4, dataFile });
    await box.close();
    const state = await readState();
    expect(state.format).toBe(1);
    expect(state.students).toHaveLength(15);
    expect(state.tokens.api).toBe(box.apiToken);
    expect((await stat(dataFile)).mode & 0o777).toBe(0o600);
  });

  it('keeps a granted product and a new student across a restart, with the same tokens', async () => {
    const first = await startSandbox({ port: 0, students: 15, seed: 4, dataFile });
    const product = first.store.products[0];
    const created = await call<{ data: { id: string } }>(first, '/api/v1/students', {
      method: 'POST',
      body: { first_name: 'João', last_name: 'Estêvão', email: 'joao.estevao@example.com.br' },
    });
    const granted = await call(first, `/api/v1/students/${created.body.data.id}/products`, {
      method: 'POST',
      body: { product_id: product?.id, accession_date: '2025-08-01' },
    });
    expect(granted.status).toBe(201);
    await first.close();

    // Options that disagree with the file are ignored: the file wins.
    const second = await startSandbox({ port: 0, students: 3, seed: 99, dataFile });
    try {
      expect(second.apiToken).toBe(first.apiToken);
      expect(second.store.students).toHaveLength(16);
      const reply = await call<{ data: { accession_date: string } }>(second, `/api/v1/students/${created.body.data.id}/products/${product?.id}`);
      expect(reply.status).toBe(200);
      expect(reply.body.data.accession_date).toBe('2025-08-01');
    } finally {
      await second.close();
    }
  });

  it('saves a change before answering it: once acknowledged, it is in the file (a kill right after loses nothing)', async () => {
    const box = await startSandbox({ port: 0, students: 5, dataFile });
    try {
      const student = box.store.students[0];
      await call(box, `/api/v1/students/${student?.id}`, { method: 'DELETE' });
      expect((await readState()).students.map((saved) => saved.id)).not.toContain(student?.id);
    } finally {
      await box.close();
    }
  });

  it('writes atomically: only complete JSON in place, no temporary file left behind', async () => {
    const box = await startSandbox({ port: 0, students: 30, dataFile });
    const product = box.store.products[1];
    const writes = box.store.students.slice(0, 20).map((student) =>
      call(box, `/api/v1/students/${student.id}/products/${product?.id}`, { method: 'DELETE' }),
    );
    const reads: Promise<SandboxState>[] = [];
    for (let i = 0; i < 20; i++) {
      reads.push(readState());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(writes);
    await box.close();
    for (const state of await Promise.all(reads)) expect(state.format).toBe(1);
    expect(await readdir(directory)).toEqual(['state.json']);
    expect((await readState()).subscriptions.filter((subscription) => subscription.product_id === product?.id).map((s) => s.id)).toEqual(
      box.store.subscriptions.filter((subscription) => subscription.product_id === product?.id).map((s) => s.id),
    );
  });

  it('refuses a file that is not a sandbox state', async () => {
    await writeFile(dataFile, '{"hello": "world"}');
    await expect(startSandbox({ port: 0, dataFile })).rejects.toThrow(/not a sandbox data file/);
  });
});

describe('dataFile, acknowledged writes', () => {
  it('has saved a change by the time it answers it, so a kill right after loses nothing', async () => {
    const box = await startSandbox({ port: 0, students: 3, seed: 4, dataFile });
    try {
      const student = box.store.students[0]!;
      const product = box.store.products.find((candidate) => !box.store.subscriptionFor(student.id, candidate.id))!;
      const reply = await call(box, `/api/v1/students/${student.id}/products`, {
        method: 'POST', body: { product_id: product.id, accession_date: '2025-03-01' },
      });
      expect(reply.status).toBe(201);
      // Read at once, before the background save's 250 ms could have run.
      const saved = await readState();
      expect(saved.subscriptions.some((row) => row.student_id === student.id && row.product_id === product.id)).toBe(true);
    } finally {
      await box.close();
    }
  });
});

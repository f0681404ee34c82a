/**
 * 32 processes appending to one audit log at once, each record close to the
 * 4 KiB limit: every line arrives whole (one O_APPEND write per record). And
 * appends while another process rewrites the log again and again (a forget,
 * LGPD): none is lost, since both hold the log's lock.
 * The audit modules are bundled on their own for this (dist/main.cjs is the whole program);
 * last, 32 runs of the built binary itself change one student of the sandbox at once.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, type AuditRecord } from '../../src/audit/log.js';
import { run, sandboxGet, tempDir, useSandboxProcess } from './harness.js';

const PROCESSES = 32;
const RECORDS_EACH = 100;

let work: string;

beforeAll(async () => {
  work = tempDir('members-audit-race-');
  await build({
    entryPoints: {
      audit: fileURLToPath(new URL('../../src/audit/log.ts', import.meta.url)),
      forget: fileURLToPath(new URL('../../src/audit/forget.ts', import.meta.url)),
    },
    outdir: work,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    logLevel: 'warning',
  });
  writeFileSync(join(work, 'forgetter.mjs'), `
import { appendAudit, newAuditId } from './audit.mjs';
import { forgetStudent } from './forget.mjs';
const [dir, rounds] = process.argv.slice(2);
const context = {
  io: { env: {}, stderr: process.stderr, pid: process.pid, isRunning: () => false },
  settings: async () => ({ profile: 'p', baseUrl: 'http://127.0.0.1:1' }),
  configDir: async () => dir,
};
for (let i = 0; i < Number(rounds); i++) {
  const email = 'secret' + i + '@example.com';
  appendAudit(dir, {
    id: newAuditId(), time: new Date().toISOString(), user: 'f', profile: 'p', base_url: 'http://127.0.0.1:1',
    command: 'students delete', action: 'delete', result: 'deleted', student: email, student_id: 's-forget',
    before: { id: 's-forget', first_name: 'Secret', last_name: 'Person' + i, email },
  });
  const outcome = await forgetStudent(context, 's-forget', { command: 'history --forget' });
  if (outcome.records === 0) throw new Error('round ' + i + ' found nothing to forget');
}
`);
  writeFileSync(join(work, 'writer.mjs'), `
import { appendAudit, newAuditId } from './audit.mjs';
const [dir, worker, count] = process.argv.slice(2);
for (let i = 0; i < Number(count); i++) {
  appendAudit(dir, {
    id: newAuditId(), time: new Date().toISOString(), user: 'w' + worker, profile: 'p', base_url: 'http://127.0.0.1:1',
    command: 'scores set', action: 'scores.set', result: 'updated', student: worker + ':' + i, reason: String(i % 10).repeat(900),
    before: { first_name: 'é'.repeat(700), last_name: worker.repeat(1100).slice(0, 1100) },
  });
}
`);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const node = (args: string[]) => new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.on('error', reject);
  child.on('close', (code) => resolve({ code, stderr }));
});

describe('concurrent appends', () => {
  it(`${PROCESSES} processes × ${RECORDS_EACH} records of almost 4 KiB: none lost, none torn`, async () => {
    const dir = join(work, 'config');
    const results = await Promise.all(Array.from({ length: PROCESSES }, (_, w) => node([join(work, 'writer.mjs'), dir, String(w), String(RECORDS_EACH)])));
    for (const result of results) expect(result.code, result.stderr).toBe(0);

    const text = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(PROCESSES * RECORDS_EACH);
    const seen = new Set<string>();
    for (const line of lines) {
      expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(MAX_RECORD_BYTES);
      expect(Buffer.byteLength(line) + 1).toBeGreaterThan(3500);
      const record = JSON.parse(line) as AuditRecord;
      expect(record.reason).toBe(String(Number(record.student?.split(':')[1]) % 10).repeat(900));
      seen.add(record.student as string);
    }
    expect(seen.size).toBe(PROCESSES * RECORDS_EACH);
    expect(statSync(join(dir, 'audit.jsonl')).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe('appends while the log is rewritten', () => {
  it('8 processes × 150 appends while another forgets a student 25 times: every line kept, the person in none', async () => {
    const dir = join(work, 'forgetting');
    const writers = Array.from({ length: 8 }, (_, w) => node([join(work, 'writer.mjs'), dir, String(w), '150']));
    const forgetter = node([join(work, 'forgetter.mjs'), dir, '25']);
    for (const result of await Promise.all([...writers, forgetter])) expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
    const records = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord);
    expect(records.filter((record) => record.action === 'scores.set')).toHaveLength(8 * 150);
    expect(new Set(records.filter((record) => record.action === 'scores.set').map((record) => record.student)).size).toBe(8 * 150);
    expect(records.filter((record) => record.action === 'delete')).toHaveLength(25);
    expect(records.filter((record) => record.action === 'forget')).toHaveLength(25);
    expect(text).not.toMatch(/secret\d+@example\.com|Person\d+/);
  });
});

describe('the built binary', () => {
  const sandbox = useSandboxProcess(['--students', '60', '--seed', '11']);

  it('32 concurrent runs of the binary lose no line and corrupt none', async () => {
    const configDir = tempDir('members-audit-e2e-');
    try {
      const { body } = await sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/api/v1/students?per_page=100');
      const student = body.data[body.data.length - 1]!;
      const members = (args: string[]) => run(args, { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir } });
      const runs = await Promise.all(Array.from({ length: 32 }, (_, i) => members(['scores', 'set', student.id, String(i), '--quiet', '--reason', `run ${i}`])));
      for (const result of runs) expect(result.code, result.stderr).toBe(0);
      const lines = readFileSync(join(configDir, 'audit.jsonl'), 'utf8').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(32);
      const records = lines.map((line) => JSON.parse(line) as AuditRecord & { score: number });
      expect(new Set(records.map((r) => r.id)).size).toBe(32);
      expect(records.map((r) => r.score).sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i));
      expect(new Set(records.map((r) => r.reason))).toEqual(new Set(Array.from({ length: 32 }, (_, i) => `run ${i}`)));
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  }, 120_000);
});

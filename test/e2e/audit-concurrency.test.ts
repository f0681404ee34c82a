/**
 * 32 processes appending to one audit log at once, each record close to the
 * 4 KiB limit: every line arrives whole (one O_APPEND write per record).
 * The audit module is bundled on its own for this (dist/main.cjs is the whole program).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, type AuditRecord } from '../../src/audit/log.js';
import { tempDir } from './harness.js';

const PROCESSES = 32;
const RECORDS_EACH = 100;

let work: string;

beforeAll(async () => {
  work = tempDir('members-audit-race-');
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/audit/log.ts', import.meta.url))],
    outfile: join(work, 'audit.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    logLevel: 'warning',
  });
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

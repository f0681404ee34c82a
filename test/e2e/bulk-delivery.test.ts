/**
 * Results that cannot be delivered (issue 15, serious 2 and 3): a bulk run
 * piped into `head`, an --out path that is a directory or a full disk. What
 * was applied is summed up and recorded, the exit code is never 0, no temp
 * file is left behind.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, sandboxGet, useSandboxProcess, tempDir } from './harness.js';

let dir: string;

const csv = (name: string, count: number, from: number) => {
  const path = join(dir, name);
  const rows = Array.from({ length: count }, (_, i) => `Ana${from + i},Souza,ana.${from + i}@delivery.example`);
  writeFileSync(path, `first_name,last_name,email\n${rows.join('\n')}\n`);
  return path;
};
const auditRows = (configDir: string) => readFileSync(join(configDir, 'audit.jsonl'), 'utf8').trim().split('\n')
  .map((line) => JSON.parse(line) as { action: string; result: string; counts?: Record<string, number> });

const sandbox = useSandboxProcess(['--students', '3']);

beforeAll(async () => {
  dir = tempDir('members-delivery-');
});

describe('a bulk run whose results cannot be delivered', () => {
  it('piped into head: stops, sums up, records what it applied, exit 141', async () => {
    const file = csv('head.csv', 60, 0);
    const configDir = tempDir();
    // sh -c: the real pipe, and the exit code of members itself.
    const script = `"${process.execPath}" "${BIN}" students import "${file}" --yes -o csv --concurrency 1; echo "members=$?" >&2`;
    const { stderr } = await new Promise<{ stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', `{ ${script}; } | head -3 > /dev/null`], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...sandbox.env, MEMBERS_CONFIG_DIR: configDir },
      });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.on('close', () => resolve({ stderr: err }));
    });
    expect(stderr).toContain('members=141');
    expect(stderr).toMatch(/of 60 rows: \d+ created, 0 skipped, 0 failed in [\d.]+s \(read 1 page instead of 60 lookups; interrupted\)/);
    expect(stderr).toContain('stdout was closed by its reader');
    const records = auditRows(configDir);
    const created = records.filter((r) => r.action === 'create').length;
    expect(created).toBeGreaterThan(0);
    expect(records.at(-1)).toMatchObject({ action: 'bulk', result: 'interrupted', counts: expect.objectContaining({ created }) });
  });

  it('--out naming a directory: exit 2 before any request', async () => {
    const file = csv('dir.csv', 3, 100);
    const { code, stderr } = await run(['students', 'import', file, '--yes', '-o', 'csv', '--out', dir], { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: tempDir() } });
    expect(code).toBe(2);
    expect(stderr).toContain('it is a directory');
    const check = await run(['students', 'get', 'ana.100@delivery.example'], { env: sandbox.env });
    expect(check.code).toBe(4);
  });

  it('killed with SIGKILL halfway: every row it applied is already in the audit log', async () => {
    const file = csv('kill.csv', 200, 300);
    const configDir = tempDir();
    const child = spawn(process.execPath, [BIN, 'students', 'import', file, '--yes', '-o', 'ndjson', '--concurrency', '2'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...sandbox.env, MEMBERS_CONFIG_DIR: configDir },
    });
    let lines = 0;
    await new Promise<void>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        lines += chunk.split('\n').length - 1;
        if (lines >= 20 && child.exitCode === null) child.kill('SIGKILL');
      });
      child.on('close', () => resolve());
    });
    const created = new Set(auditRows(configDir).filter((r) => r.action === 'create').map((r) => (r as { student?: string }).student));
    // What the server holds: the e-mails of the file that exist now.
    const existing: string[] = [];
    for (let i = 300; i < 500; i++) {
      const email = `ana.${i}@delivery.example`;
      if ((await sandboxGet(sandbox, `/api/v1/students/email/${encodeURIComponent(email)}`)).status === 200) existing.push(email);
    }
    expect(existing.length).toBeGreaterThanOrEqual(20);
    // Rows in flight at the kill (at most --concurrency) may be applied and not yet recorded; no other.
    expect(existing.filter((email) => !created.has(email)).length).toBeLessThanOrEqual(2);
    expect(auditRows(configDir).some((r) => r.action === 'bulk')).toBe(false);
  });
});


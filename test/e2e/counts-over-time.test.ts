/**
 * Counts over time (issue 38, item 5): `products snapshot` on three days (the
 * clock faked in the binary's process by a preload), then `products list
 * --compare` against the nearest snapshot on or before a date, and the plain
 * answer before the first one: the API keeps no history, nothing is estimated.
 * Every test has a sandbox and a change record of its own (snapshots are kept
 * in the record), so that each takes the snapshots it reads, in any order.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run, useSandboxProcess } from './harness.js';

const FAKE_CLOCK = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'fake-clock.cjs');
const sandbox = useSandboxProcess(['--students', '30', '--seed', '8'], { each: true });
const on = (day: string, args: string[]) => run(args, { env: { ...sandbox.env, FAKE_NOW: `${day}T12:00:00Z`, NODE_OPTIONS: `--require ${FAKE_CLOCK}`, TZ: 'UTC' } });

/** Python Pro's row of a snapshot (`active`) or a comparison (`active_then`, `active_now`…), and what stderr said. */
type Row = Record<string, unknown>;
const python = async (day: string, args: string[]): Promise<{ row: Row; stderr: string }> => {
  const { code, stdout, stderr } = await on(day, [...args, '-o', 'json']);
  expect(code, stderr).toBe(0);
  return { row: (JSON.parse(stdout) as Row[]).find((product) => product.title === 'Python Pro') as Row, stderr };
};

async function newHolderOfPython(day: string, n: number): Promise<void> {
  const email = `counts.${n}@example.com`;
  expect((await on(day, ['students', 'create', '--first-name', 'Counts', '--last-name', String(n), '--email', email, '--yes', '-q'])).code).toBe(0);
  expect((await on(day, ['students', 'grant', email, 'Python Pro', '--yes', '-q'])).code).toBe(0);
}

describe('products snapshot and products list --compare', () => {
  it('before any snapshot: the API keeps no history, said plainly, exit 2, nothing estimated', async () => {
    const { code, stdout, stderr } = await on('2026-09-01', ['products', 'list', '--compare', 'last-month']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("error: no subscriber counts for 2026-08-01: the platform's API keeps no history");
    expect(stderr).toContain('no snapshot is kept yet');
    expect(stderr).toContain('members products snapshot');
  });

  it('three days of snapshots; --compare takes the nearest on or before the date, and says so', async () => {
    const first = await python('2026-09-01', ['products', 'snapshot']);
    await newHolderOfPython('2026-09-15', 1);
    const second = await python('2026-10-01', ['products', 'snapshot']);
    await newHolderOfPython('2026-10-15', 2);
    await newHolderOfPython('2026-10-16', 3);
    await python('2026-11-01', ['products', 'snapshot']);
    const active = (snapshot: { row: Row }) => snapshot.row.active as number;
    expect(active(second)).toBe(active(first) + 1);

    // 2026-10-20: the nearest snapshot on or before is 1 October's.
    const compared = await python('2026-11-20', ['products', 'list', '--compare', '2026-10-20']);
    expect(compared.row).toMatchObject({ then: '2026-10-01', active_then: active(second), active_now: active(second) + 2, active_change: 2 });
    expect(compared.stderr).toContain('No snapshot on 2026-10-20: compared with the nearest one before it, 2026-10-01');
    // last-month from 1 October 2026 is 1 September, a snapshot day.
    const lastMonth = await python('2026-10-01', ['products', 'list', '--compare', 'last-month']);
    expect(lastMonth.row).toMatchObject({ then: '2026-09-01', active_then: active(first) });
    expect(lastMonth.stderr).not.toContain('No snapshot on');
  });

  it('a date before the first snapshot names the first date it can answer', async () => {
    await python('2026-09-01', ['products', 'snapshot']);
    await python('2026-10-01', ['products', 'snapshot']);
    const { code, stderr } = await on('2026-11-20', ['products', 'list', '--compare', '2026-08-31']);
    expect(code).toBe(2);
    expect(stderr).toContain('the first date this can answer is 2026-09-01, the first snapshot kept');
  });

  it('a date after today, or not a date, is exit 2', async () => {
    expect((await on('2026-11-20', ['products', 'list', '--compare', '2026-11-21'])).code).toBe(2);
    expect((await on('2026-11-20', ['products', 'list', '--compare', 'yesterday'])).stderr).toContain('--compare needs a date (YYYY-MM-DD) or last-month');
  });
});

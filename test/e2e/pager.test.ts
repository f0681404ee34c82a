/**
 * Long output at a terminal goes through a pager (issue 31): MEMBERS_PAGER,
 * else PAGER, else `less -FRX`; never into a pipe, never for output that fits
 * the screen; `--no-pager` or an empty MEMBERS_PAGER turns it off. Run on a
 * pseudo-terminal of 40 rows (util-linux `script`), with a recorder as the pager.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HAS_SCRIPT, run, runInTerminal, shellQuote, useSandboxProcess, tempDir } from './harness.js';

const RECORDER = fileURLToPath(new URL('./fixtures/pager-recorder.mjs', import.meta.url));

let dir: string;
const recorded = () => join(dir, 'paged.txt');
const pagerEnv = (extra: Record<string, string> = {}, take = '') => ({
  ...sandbox.env,
  PAGER: `${process.execPath} ${RECORDER} ${recorded()}${take ? ` --take ${take}` : ''}`,
  ...extra,
});

const sandbox = useSandboxProcess(['--students', '200', '--seed', '31'], { enabled: HAS_SCRIPT });

describe.skipIf(!HAS_SCRIPT)('the pager', () => {
  it('pages a list longer than the screen through PAGER, whole, with LESS=FRX set for it', async () => {
    dir = tempDir('members-pager-');
    const { code, output } = await runInTerminal(['students', 'list', '--all', '--no-color'], { env: pagerEnv() });
    expect(code).toBe(0);
    const paged = readFileSync(recorded(), 'utf8');
    expect(paged.split('\n').filter((line) => line.startsWith('│ ')).length).toBe(201);
    expect(output).toMatch(/PAGER READ \d+ BYTES, LESS=FRX/);
    expect(output).not.toContain('│ NAME');
  });

  it('MEMBERS_PAGER wins over PAGER', async () => {
    dir = tempDir('members-pager-');
    const ours = join(dir, 'ours.txt');
    const { code } = await runInTerminal(['students', 'list', '--all', '--no-color'], {
      env: pagerEnv({ MEMBERS_PAGER: `${process.execPath} ${RECORDER} ${ours}` }),
    });
    expect(code).toBe(0);
    expect(readFileSync(ours, 'utf8')).toContain('│ NAME');
    expect(existsSync(recorded())).toBe(false);
  });

  it.each([
    ['--no-pager', ['--no-pager'], {}],
    ['an empty MEMBERS_PAGER', [], { MEMBERS_PAGER: '' }],
  ])('%s prints to the terminal itself', async (_name, flags, extra) => {
    dir = tempDir('members-pager-');
    const { code, output } = await runInTerminal(['students', 'list', '--all', '--no-color', ...flags], { env: pagerEnv(extra) });
    expect(code).toBe(0);
    expect(existsSync(recorded())).toBe(false);
    expect(output.split('\n').filter((line) => line.startsWith('│ ')).length).toBe(201);
  });

  it('output that fits the screen is printed without a pager', async () => {
    dir = tempDir('members-pager-');
    const { code, output } = await runInTerminal(['students', 'list', '--per-page', '5', '--no-color'], { env: pagerEnv() });
    expect(code).toBe(0);
    expect(existsSync(recorded())).toBe(false);
    expect(output).toContain('│ NAME');
  });

  it('a pipe never gets a pager, even with PAGER set', async () => {
    dir = tempDir('members-pager-');
    const { code, stdout } = await run(['students', 'list', '--all'], { env: pagerEnv() });
    expect(code).toBe(0);
    expect(stdout.split('\n').length).toBeGreaterThan(200);
    expect(existsSync(recorded())).toBe(false);
  });

  it('quitting the pager before the end is a normal end: exit 0, nothing on the screen but the pager', async () => {
    dir = tempDir('members-pager-');
    const { code, output } = await runInTerminal(['students', 'list', '--all', '-o', 'ndjson'], { env: pagerEnv({}, '100') });
    expect(output).toContain('PAGER QUIT');
    expect(code).toBe(0);
    expect(output).not.toMatch(/error|stdout was closed/i);
  });

  /** PATH with a `less` that records what it is given, as the default pager would be. */
  const fakeLess = () => {
    writeFileSync(join(dir, 'less'), `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(RECORDER)} ${shellQuote(recorded())}\n`);
    chmodSync(join(dir, 'less'), 0o755);
    return { ...sandbox.env, PATH: `${dir}:${process.env.PATH}`, PAGER: undefined, MEMBERS_PAGER: undefined };
  };

  it('the default pager is less, found on PATH', async () => {
    dir = tempDir('members-pager-');
    const { code } = await runInTerminal(['students', 'list', '--all', '--no-color'], { env: { ...fakeLess(), TERM: 'xterm' } });
    expect(code).toBe(0);
    expect(readFileSync(recorded(), 'utf8')).toContain('│ NAME');
  });

  it('TERM=dumb gets no default pager (less would wait for RETURN), but a PAGER the user named still runs', async () => {
    dir = tempDir('members-pager-');
    const { code, output } = await runInTerminal(['students', 'list', '--all', '--no-color'], { env: { ...fakeLess(), TERM: 'dumb' } });
    expect(code).toBe(0);
    expect(existsSync(recorded())).toBe(false);
    expect(output.split('\n').filter((line) => line.startsWith('| ')).length).toBe(201);
    const named = await runInTerminal(['students', 'list', '--all', '--no-color'], { env: pagerEnv({ TERM: 'dumb' }) });
    expect(named.code).toBe(0);
    expect(readFileSync(recorded(), 'utf8')).toContain('| NAME');
  });

  it('a terminal that does not say its height (rows 0) is never paged', async () => {
    dir = tempDir('members-pager-');
    const { code, output } = await runInTerminal(['students', 'list', '--per-page', '5', '--no-color'], { env: pagerEnv(), rows: 0 });
    expect(code).toBe(0);
    expect(existsSync(recorded())).toBe(false);
    expect(output).toContain('│ NAME');
  });

  it('a pager that cannot start leaves the output to the terminal', async () => {
    dir = tempDir('members-pager-');
    const { code, output } = await runInTerminal(['students', 'list', '--all', '--no-color'], { env: { ...sandbox.env, PAGER: 'no-such-pager-here -x' } });
    expect(code).toBe(0);
    expect(output.split('\n').filter((line) => line.startsWith('│ ')).length).toBe(201);
  });
});

/**
 * `npm run demo` (scripts/demo.mjs), the first command of the README on a
 * fresh clone: it runs through the real binary against its own sandbox, shows
 * the name-based flows, and writes escape codes only to a terminal that
 * wants colour.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HAS_SCRIPT } from './harness.js';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));

/** The demo with stdout and stderr on a pipe, or on a pseudo-terminal (util-linux `script`). */
function demo(options: { terminal?: boolean; env?: Record<string, string> } = {}): Promise<{ code: number | null; output: string }> {
  // No update check at the terminal: a test never asks npm's registry (harness.ts, baseEnv).
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', MEMBERS_NO_UPDATE_NOTIFIER: '1', ...options.env };
  const child = options.terminal
    ? spawn('script', ['-qefc', `stty cols 200 rows 40; exec '${process.execPath}' '${DEMO}'`, '/dev/null'], { env })
    : spawn(process.execPath, [DEMO], { env });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const headings = (output: string) => output.split(/\r?\n/).filter((line) => line.includes('# ') && !line.startsWith('$'));

describe('npm run demo', () => {
  it('into a pipe: no escape codes, every heading has its command and some output, and the name-based flows run', async () => {
    const { code, output } = await demo({ env: { FORCE_COLOR: '0' } });
    expect(code).toBe(0);
    expect(output).not.toContain('\x1b');
    const sections = output.split(/\n(?=# )/).slice(1);
    expect(sections.length).toBeGreaterThan(10);
    for (const section of sections) {
      const [heading, command, ...rest] = section.trimEnd().split('\n');
      expect(command, heading).toMatch(/^\$ members /);
      expect(rest.filter((line) => line.trim() !== '').length, heading).toBeGreaterThan(0);
    }
    expect(output).toMatch(/\$ members students grant \S+@\S+ 'clube de financas' --reason 'ticket #4812'\n.*\n✓ Granted product "Clube de Finanças"/);
    expect(output).toContain('already has access to product "Clube de Finanças"');
    expect(output).toMatch(/\$ members students grant \S+ 'python pro' --renew .*\n.*\n✓ Renewed product "Python Pro"/);
    expect(output).toContain('$ members students show ');
    expect(output).toContain('$ members history --student 070.692.055-46');
    expect(output).toMatch(/✓ Undid \S+: revoked product/);
    expect(output).toContain('Sandbox stopped; the demo left nothing behind.');
  }, 60_000);

  it.runIf(HAS_SCRIPT)('on a terminal the headings are bold, and plain with NO_COLOR', async () => {
    const bold = await demo({ terminal: true });
    expect(bold.code).toBe(0);
    expect(headings(bold.output)[0]).toBe('\x1b[1m# Who is logged in?\x1b[22m');
    const plain = await demo({ terminal: true, env: { NO_COLOR: '1' } });
    expect(plain.code).toBe(0);
    expect(headings(plain.output)[0]).toBe('# Who is logged in?');
    expect(headings(plain.output).filter((line) => line.includes('\x1b'))).toEqual([]);
  }, 120_000);
});

/**
 * bin/members.js prints `members --help` from dist/help.txt, which the build
 * renders with the program itself, for a pipe or an 80-column terminal; any
 * other width, and every other help, goes through the program.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIo } from '../helpers/fake-io.js';
import { BIN, HAS_SCRIPT, run, runInTerminal, tempDir } from './harness.js';

async function programHelp(columns?: number): Promise<string> {
  const fake = fakeIo({ columns, stdoutTTY: columns !== undefined });
  expect(await main(['--help'], fake.io)).toBe(0);
  return fake.stdout();
}

describe('members --help before anything loads', () => {
  it('prints to a pipe exactly what the program prints (-h too), exit 0', async () => {
    const expected = await programHelp();
    expect(expected).toContain('Usage: members [options] [command]');
    for (const flag of ['--help', '-h']) expect(await run([flag])).toEqual({ code: 0, stdout: expected, stderr: '' });
  });

  it('without dist/help.txt (a checkout built before it existed), the program prints it', async () => {
    const install = tempDir('members-no-help-');
    const root = join(BIN, '..', '..');
    for (const dir of ['bin', 'dist']) mkdirSync(join(install, dir));
    for (const file of ['package.json', 'bin/members.js', 'bin/code-cache.js', 'bin/package.json', 'dist/main.cjs']) copyFileSync(join(root, file), join(install, file));
    const help = await run(['--help'], { bin: join(install, 'bin', 'members.js'), env: { NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(help).toEqual({ code: 0, stdout: await programHelp(), stderr: '' });
  });

  it('any other help is the program\'s own', async () => {
    const grant = await run(['students', 'grant', '--help']);
    expect(grant.code).toBe(0);
    expect(grant.stdout.split('\n')[0]).toBe('Usage: members students grant [options] <student> <product>... | --file <file>');
  });

  it.skipIf(!HAS_SCRIPT)('a terminal of another width gets help wrapped to it, by the program', async () => {
    const { code, output } = await runInTerminal(['--help'], { columns: 120 });
    expect(code).toBe(0);
    const wide = (await programHelp(120)).split('\n');
    // Lines longer than 80 columns only exist when the program wrapped to the terminal's 120.
    expect(wide.some((line) => line.length > 80)).toBe(true);
    expect(output.replaceAll('\r\n', '\n')).toContain(wide.find((line) => line.length > 80));
  });
});

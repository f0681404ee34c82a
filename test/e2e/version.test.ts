/**
 * `members --version` and `members version`: what a bug report needs, one a
 * line. bin/members.js answers both before the program loads; the program
 * answers when other words come with them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './harness.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const expected = `members ${version}\nNode.js ${process.version}\n${process.platform} ${process.arch}\n`;

describe('the version', () => {
  it('--version, -V and version print the version, the Node.js version and the platform, one a line', async () => {
    for (const args of [['--version'], ['-V'], ['version']]) {
      expect({ args, ...(await run(args)) }).toEqual({ args, code: 0, stdout: expected, stderr: '' });
    }
  });

  it('version -o json (or --json) prints them as a record; -o csv as a row', async () => {
    const record = { version, node: process.version, platform: `${process.platform} ${process.arch}` };
    for (const args of [['version', '-o', 'json'], ['--json', 'version']]) {
      const result = await run(args);
      expect({ args, code: result.code, stderr: result.stderr, json: JSON.parse(result.stdout) as unknown }).toEqual({ args, code: 0, stderr: '', json: record });
    }
    expect((await run(['version', '-o', 'csv'])).stdout).toBe(`version,node,platform\n${version},${process.version},${process.platform} ${process.arch}\n`);
  });

  it('the program prints the same when bin leaves it to the program (another word on the line)', async () => {
    for (const args of [['version', '--quiet'], ['--no-color', '--version']]) {
      expect({ args, ...(await run(args)) }).toEqual({ args, code: 0, stdout: expected, stderr: '' });
    }
  });
});

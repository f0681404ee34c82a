/** Issue 37, item 6: a file export ends with `Wrote N rows to F` on stderr at a terminal, and says nothing to a script. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();

describe('--out at a terminal', () => {
  it('says how many rows went where; off a terminal, or with -q, nothing; the extension chose json', async () => {
    const file = join(t.configDir, 'v.json');
    const atTerminal = await t.cli(['version', '--out', file], { stderrTTY: true });
    expect(atTerminal.code).toBe(0);
    expect(atTerminal.stderr).toBe(`Wrote 1 row to ${file}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('version');
    expect((await t.cli(['version', '--out', file])).stderr).toBe('');
    expect((await t.cli(['version', '--out', file, '-q'], { stderrTTY: true })).stderr).toBe('');
  });
});

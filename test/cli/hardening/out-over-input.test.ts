/** Issue 37, item 6: an output file naming the command's input file is refused before anything is read or sent. */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();
const ROWS = 'student,product_id\nana@x.co,p1\n';

describe('--out or --plan-out naming the input file', () => {
  it.each([
    [['students', 'grant', '--file', 'in.csv', '--out', 'in.csv'], '--out in.csv'],
    [['students', 'revoke', '--file', 'in.csv', '--yes', '--out', './in.csv'], '--out ./in.csv'],
    [['students', 'import', 'in.csv', '--out', 'sub/../in.csv'], '--out sub/../in.csv'],
    [['sync', '--file', 'in.csv', '--plan-out', 'in.csv'], '--plan-out in.csv'],
    [['sync', '--file', 'in.csv', '--dry-run', '--out', 'link.csv'], '--out link.csv'],
    [['each', 'in.csv', '--out', 'in.csv', '--', 'scores', 'get', '{student}'], '--out in.csv'],
  ])('%j: exit 2, the input untouched, no request', async (args, named) => {
    const cwd = t.configDir;
    mkdirSync(join(cwd, 'sub'), { recursive: true });
    writeFileSync(join(cwd, 'in.csv'), ROWS);
    symlinkSync(join(cwd, 'in.csv'), join(cwd, 'link.csv'));
    t.agent.enableCallHistory();
    const { code, stderr } = await t.cli(args, { cwd });
    expect(code).toBe(2);
    expect(stderr).toContain(`error: ${named} names the input file in.csv: writing it would replace the rows being read. Give ${named.split(' ')[0]} another file name; nothing was sent\n`);
    expect(readFileSync(join(cwd, 'in.csv'), 'utf8')).toBe(ROWS);
    expect(t.agent.getCallHistory()?.calls() ?? []).toEqual([]);
  });
});

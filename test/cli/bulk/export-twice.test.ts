/** Issue 37, item 4: an export that arrived twice (its rows again, its header in the middle) is read as the export it is. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();
const HALF = ['s1,p1,2024-01-01', 's2,p1,2024-01-01', 's3,p1,2024-01-01'];

describe('an export that arrived twice', () => {
  it('identical rows and the repeated header are left out with a notice; a row that disagrees is still refused, nothing sent', async () => {
    const file = join(t.configDir, 'twice.csv');
    writeFileSync(file, ['student,product_id,accession_date', ...HALF, 'Student,Product_ID,Accession_Date', ...HALF, 's2,p1,2025-02-02'].join('\n'));
    t.agent.enableCallHistory();
    const loud = await t.cli(['students', 'grant', '--file', file]);
    expect(loud.code).toBe(2);
    expect(loud.stderr).toBe([
      `the header of ${file} was found again at line 5 and skipped (an export that arrived twice?)`,
      'error: line 9: duplicate of line 3 (the same student and product_id)',
      '3 duplicate rows ignored (the same as an earlier row, cell for cell: lines 6, 7, 8)',
      `error: 1 invalid row in ${file}; nothing was sent. Fix it, or pass --skip-invalid to apply the other rows`,
      '',
    ].join('\n'));
    expect(t.agent.getCallHistory()?.calls() ?? []).toEqual([]);
  });
});

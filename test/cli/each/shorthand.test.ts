/**
 * The file forms (`magic-link --file F`, `scores set|add --file F`): each
 * finds its columns by their headers and runs as `members each` of the one
 * command, in-process against undici's MockAgent. In the mutation run
 * (vitest.mutation.config.ts) for each/shorthand.ts's runShorthand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE, mockCli } from '../../helpers/mock-cli.js';
import { holdLease } from '../../../src/audit/leases.js';
import { LocalLeases } from '../../../src/audit/local-leases.js';
import { runKey } from '../../../src/commands/shared/each/resume.js';

const t = mockCli();

function link(email: string, expireIn: number, status = 200) {
  t.pool().intercept({ path: `/api/v1/students/email/${encodeURIComponent(email)}/magic-link`, method: 'POST', body: JSON.stringify({ expire_in: expireIn }) })
    .reply(status, status === 200 ? { data: { url: `https://m.example.com/magic/${email}`, expire_in: expireIn } } : { message: 'Server Error' });
}

const audit = () => readFileSync(join(t.configDir, 'audit.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the file forms of members each', () => {
  it('magic-link --file: a link per row, the student found by its header, the flags as typed (braces and all), every row run despite a failure', async () => {
    link('ana@x.co', 7200, 422);
    link('bia@x.co', 7200);
    const { code, stdout, stderr } = await t.cli(
      ['magic-link', '--file', '-', '--expire-in', '2h', '--reason', 'turma {A} }{', '--yes', '-o', 'json'],
      { stdin: 'Nome;E-mail\nAna;ana@x.co\nBia;bia@x.co\n' },
    );
    expect(code, stderr).toBe(7);
    expect((JSON.parse(stdout) as Array<{ line: number; result: string; url?: string }>).map((row) => [row.line, row.result, row.url])).toEqual([
      [2, 'failed', ''], [3, 'done', 'https://m.example.com/magic/bia@x.co'],
    ]);
    expect(stderr).toContain('2 rows: 1 done, 0 skipped, 1 failed in');
    expect(audit().filter((record) => record.action === 'magic-link' && record.result === 'created').map((record) => [record.line, record.reason, record.expire_in])).toEqual([[3, 'turma {A} }{', 7200]]);
  });

  it('scores set --file: the student and the score by their headers, in a file named on the command line', async () => {
    const file = join(t.configDir, 'pontos.csv');
    writeFileSync(file, 'Pontuação,ID\n12,s1\n');
    t.pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET' }).reply(200, { data: { score: 3 } });
    t.pool().intercept({ path: '/api/v1/students/s1/scores', method: 'PUT', body: JSON.stringify({ score: 12 }) }).reply(200, { data: { score: 12 } });
    const { code, stderr } = await t.cli(['scores', 'set', '--file', file, '--yes'], {});
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('1 row: 1 done, 0 skipped, 0 failed in');
  });

  it('names the file and the headers it looked for when a column is missing, before anything is sent', async () => {
    const stdin = await t.cli(['magic-link', '--file', '-', '--yes'], { stdin: 'Nome;Telefone\nAna;11\n' });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain('error: stdin has no student column: its header is "Nome", "Telefone"; name one of them student, studentemail, email, cpf…, '
      + 'or run `members each stdin -- COMMAND {Column}…`');
    const file = join(t.configDir, 'notas.csv');
    writeFileSync(file, 'E-mail,Nome\na@x.co,Ana\n');
    const named = await t.cli(['scores', 'add', '--file', file, '--yes'], {});
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`error: ${file} has no points column: its header is "E-mail", "Nome"; name one of them points, pontos, score, pontuacao…`);
  });

  it('scores add --file while another run of it holds its lease: exit 10 naming the holder, nothing sent; --wait goes with --file only', async () => {
    const file = join(t.configDir, 'bonus.csv');
    const content = 'ID,Pontos\ns1,5\n';
    writeFileSync(file, content);
    const held = await holdLease(new LocalLeases(t.configDir), {
      scope: { base_url: BASE, products: [], run_key: runKey([BASE, 'scores', 'add', '{ID}', '{Pontos}'], Buffer.from(content)) },
      holder: { user: 'bia', host: 'desk-2', pid: 4242, command: 'each scores add' }, waitMs: 0,
    });
    try {
      const refused = await t.cli(['scores', 'add', '--file', file, '--yes', '--wait', '0'], {});
      expect(refused.code, refused.stderr).toBe(10);
      expect(refused.stderr).toContain('another run holds the lease on the run of the same command on the same file on https://members.example.com');
      expect(refused.stderr).toContain('bia on desk-2 (members each scores add, pid 4242)');
      expect(refused.stderr).toContain('nothing was sent');
    } finally {
      await held.release();
    }
    const single = await t.cli(['scores', 'add', 's1', '5', '--wait', '1m', '--yes'], {});
    expect(single.code).toBe(2);
    expect(single.stderr).toContain('error: --wait goes with --file: a single change waits for no other run');
    const link = await t.cli(['magic-link', 'ana@x.co', '--wait', '1m'], {});
    expect(link.code).toBe(2);
  });
});

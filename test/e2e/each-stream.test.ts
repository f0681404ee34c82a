/**
 * `members each` prints each row's result as soon as it and the rows before
 * it are done, through the built binary against `members sandbox` in both
 * flavours. The sandbox holds a later row's request (a magic link by id,
 * while the rows before it ask by e-mail) until the test releases it: what
 * is on stdout, or in the --out file, while that row is held was printed
 * before the run ended — waited on by events, never by the clock.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { tempDir } from './harness.js';
import { describeBulkFlavors, holdNext, settled, spawnMembers, writeCsv } from './bulk-helpers.js';

const MAGIC_BY_ID = { method: 'POST', route: '/api/v1/students/{id}/magic-link' };

/** The first `count` lines the child prints on stdout, as soon as they are printed. */
function firstLines(child: ReturnType<typeof spawnMembers>, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const stdout = child.child.stdout;
    const onData = (chunk: string) => {
      text += chunk;
      const lines = text.split('\n');
      if (lines.length <= count) return;
      stdout?.off('data', onData);
      resolve(lines.slice(0, count));
    };
    stdout?.on('data', onData);
    void child.exited.then(() => reject(new Error(`exited before printing ${count} lines: ${child.output().stderr}`)));
  });
}

describeBulkFlavors('members each prints results as rows finish', ['--students', '40', '--seed', '41'], (bulk) => {
  let configs = 0;
  const ownEnv = () => ({ ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: join(bulk.dir, `config-${configs++}`) });

  it('-o ndjson: the first row\'s line is on stdout while a later row is still in flight', async () => {
    const [first, held] = bulk.students.slice(0, 2) as [typeof bulk.students[0], typeof bulk.students[0]];
    const file = writeCsv(bulk.dir, 'stream.csv', ['student', first.email, held.id]);
    await settled(bulk.sandbox);
    const hold = await holdNext(bulk.sandbox, MAGIC_BY_ID);
    const child = spawnMembers(['each', file, '--yes', '-o', 'ndjson', '--concurrency', '2', '--', 'magic-link', '{student}'], ownEnv());
    const lines = firstLines(child, 1);
    await hold.held();
    expect(JSON.parse((await lines)[0] as string)).toMatchObject({ line: 2, student: first.email, result: 'done', url: expect.stringMatching(/^http/) });
    // Printed while line 3 waited for its answer: the run has not ended.
    expect(child.child.exitCode).toBeNull();
    await hold.release();
    const exited = await child.exited;
    const { stdout, stderr } = child.output();
    expect(exited.code, stderr).toBe(0);
    expect(stdout.trim().split('\n').map((text) => JSON.parse(text) as { line: number; result: string })).toMatchObject([
      { line: 2, result: 'done' }, { line: 3, result: 'done' },
    ]);
  }, 60_000);

  it('the table piped to a log: the header and the first row\'s line while a later row is in flight', async () => {
    const [first, held] = bulk.students.slice(5, 7) as [typeof bulk.students[0], typeof bulk.students[0]];
    const file = writeCsv(bulk.dir, 'stream-table.csv', ['student', first.email, held.id]);
    await settled(bulk.sandbox);
    const hold = await holdNext(bulk.sandbox, MAGIC_BY_ID);
    const child = spawnMembers(['each', file, '--yes', '--concurrency', '2', '--', 'magic-link', '{student}'], ownEnv());
    const lines = firstLines(child, 2);
    await hold.held();
    const [header, row] = await lines;
    expect(header).toBe('LINE  STUDENT  RESULT  MESSAGE  EXPIRE_IN  URL');
    expect(row).toMatch(new RegExp(`^2  ${first.email.replace(/[.+]/g, '\\$&')}  done  .*  3600  http\\S+$`));
    expect(child.child.exitCode).toBeNull();
    await hold.release();
    const exited = await child.exited;
    expect(exited.code, child.output().stderr).toBe(0);
    expect(child.output().stdout.trim().split('\n')).toHaveLength(3);
  }, 60_000);

  it('--out results.csv after a SIGKILL holds the header and every row that finished, complete', async () => {
    const [a, b, held] = bulk.students.slice(2, 5) as Array<typeof bulk.students[0]>;
    const file = writeCsv(bulk.dir, 'killed-out.csv', ['student', a!.email, b!.email, held!.id]);
    const out = join(tempDir(), 'results.csv');
    await settled(bulk.sandbox);
    const hold = await holdNext(bulk.sandbox, MAGIC_BY_ID);
    const child = spawnMembers(['each', file, '--yes', '--out', out, '--concurrency', '1', '--', 'magic-link', '{student}'], ownEnv());
    // One row at a time: line 4 is asked for only once lines 2 and 3 are done, and their results written.
    await hold.held();
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    await hold.release();
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0] ?? {})).toEqual(['line', 'student', 'result', 'message', 'expire_in', 'url']);
    expect(rows.map((row) => [row.line, row.student, row.result])).toEqual([['2', a!.email, 'done'], ['3', b!.email, 'done']]);
    expect(rows.every((row) => row.url?.startsWith('http'))).toBe(true);
  }, 60_000);
});

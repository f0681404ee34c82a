import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import { createOutput } from '../../../src/output/index.js';
import { fakeIo } from '../../helpers/fake-io.js';
import { globals, joao, maria, studentView } from './setup.js';

describe('--out FILE', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'members-out-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a temporary file of mode 0600 and renames it into place only on close', async () => {
    const fake = fakeIo({ cwd: dir, stdoutTTY: true });
    const out = await createOutput(fake.io, globals({ output: 'json', out: 'students.json' }));
    await out.list([maria, joao], studentView);

    const [temp, ...others] = await readdir(dir);
    expect(others).toEqual([]);
    expect(temp).toMatch(/^\.students\.json\.[0-9a-f]{12}\.tmp$/);
    expect((await stat(join(dir, temp ?? ''))).mode & 0o777).toBe(0o600);

    await out.close();
    expect(await readdir(dir)).toEqual(['students.json']);
    // Not a terminal, even though stdout is one: compact JSON.
    expect(await readFile(join(dir, 'students.json'), 'utf8')).toBe(`${JSON.stringify([maria, joao])}\n`);
    expect((await stat(join(dir, 'students.json'))).mode & 0o777).toBe(0o600);
    expect(fake.stdout()).toBe('');
  });

  it('replaces an existing file, which keeps its old content until close', async () => {
    const target = join(dir, 'report.csv');
    await writeFile(target, 'old\n', { mode: 0o644 });
    const out = await createOutput(fakeIo().io, globals({ output: 'csv', out: target, fields: ['id'] }));
    await out.list([maria], studentView);
    expect(await readFile(target, 'utf8')).toBe('old\n');
    await out.close();
    expect(await readFile(target, 'utf8')).toBe('id\ns1\n');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('growing (members each): csv and ndjson are in place from the first record and grow with each; json is still written whole at close', async () => {
    for (const [output, name] of [['csv', 'rows.csv'], ['ndjson', 'rows.ndjson']] as const) {
      const out = await createOutput(fakeIo({ cwd: dir }).io, globals({ output, out: name, fields: ['id'] }), { growing: true });
      const written: string[] = [];
      // Each record is read back from the file as the next one is asked for: what a kill right then would leave.
      async function* rows() {
        yield maria;
        written.push(await readFile(join(dir, name), 'utf8'));
        yield joao;
        written.push(await readFile(join(dir, name), 'utf8'));
      }
      await out.list(rows(), studentView);
      await out.abort();
      expect(written).toEqual(output === 'csv' ? ['id\ns1\n', 'id\ns1\ns2\n'] : ['{"id":"s1"}\n', '{"id":"s1"}\n{"id":"s2"}\n']);
      // An abort after the first record keeps what was written.
      expect(await readFile(join(dir, name), 'utf8')).toBe(written[1]);
    }
    const json = await createOutput(fakeIo({ cwd: dir }).io, globals({ output: 'json', out: 'rows.json' }), { growing: true });
    await json.list([maria], studentView);
    expect((await readdir(dir)).filter((file) => file === 'rows.json')).toEqual([]);
    await json.close();
    expect(JSON.parse(await readFile(join(dir, 'rows.json'), 'utf8'))).toEqual([maria]);
  });

  it('leaves neither the file nor the temporary file after abort', async () => {
    const out = await createOutput(fakeIo({ cwd: dir }).io, globals({ output: 'ndjson', out: 'half.ndjson' }));
    await out.list([maria], studentView);
    await out.abort();
    expect(await readdir(dir)).toEqual([]);
  });

  it('waits for the disk on a large output', async () => {
    const records = Array.from({ length: 5000 }, (_, index) => ({ ...maria, id: `s${index}` }));
    const out = await createOutput(fakeIo({ cwd: dir }).io, globals({ output: 'ndjson', out: 'big.ndjson' }));
    expect(await out.list(records, studentView)).toBe(5000);
    await out.close();
    expect(await readFile(join(dir, 'big.ndjson'), 'utf8')).toBe(records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  });

  it('keeps the file when abort follows a successful close', async () => {
    const out = await createOutput(fakeIo({ cwd: dir }).io, globals({ output: 'ndjson', out: 'done.ndjson' }));
    await out.one(maria, studentView);
    await out.close();
    await out.abort();
    expect(await readdir(dir)).toEqual(['done.ndjson']);
  });

  it('has no colour, even with FORCE_COLOR', async () => {
    const fake = fakeIo({ cwd: dir, stdoutTTY: true, columns: 30, env: { FORCE_COLOR: '1' } });
    const out = await createOutput(fake.io, globals({ out: 'table.txt', fields: ['id', 'name'] }));
    await out.list([maria], studentView);
    await out.close();
    expect(await readFile(join(dir, 'table.txt'), 'utf8')).toBe('ID  NAME\ns1  Maria Souza\n');
  });

  it('is a usage error when the directory does not exist', async () => {
    const error = await createOutput(fakeIo({ cwd: dir }).io, globals({ out: 'missing/x.csv' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toHaveProperty('message', `cannot write --out ${join(dir, 'missing/x.csv')}: ENOENT`);
  });
});

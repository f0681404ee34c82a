import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { OutStream } from '../../../src/lib/io.js';
import { UsageError } from '../../../src/lib/errors.js';
import { createOutput } from '../../../src/output/index.js';
import { fakeIo } from '../../helpers/fake-io.js';
import { globals, joao, maria, render, studentView } from './setup.js';

describe('json', () => {
  it('prints one record as a compact object when piped', async () => {
    const { stdout, stderr } = await render({ output: 'json' }, (out) => out.one(maria, studentView));
    expect(stdout).toBe('{"id":"s1","name":"Maria Souza","active":1,"created_at":"2024-03-05T14:22:09Z","product":{"id":"p1","title":"Yoga"},"tags":["vip","early"]}\n');
    expect(stderr).toBe('');
  });

  it('pretty-prints one record on a terminal', async () => {
    const { stdout } = await render({ output: 'json' }, (out) => out.one({ id: 's1', product: { title: 'Yoga' } }, studentView), { stdoutTTY: true });
    expect(stdout).toBe('{\n  "id": "s1",\n  "product": {\n    "title": "Yoga"\n  }\n}\n');
  });

  it('prints a list as one compact array when piped', async () => {
    const { stdout } = await render({ output: 'json' }, (out) => out.list([maria, joao], studentView));
    expect(stdout).toBe(`${JSON.stringify([maria, joao])}\n`);
  });

  it('pretty-prints a list on a terminal exactly as JSON.stringify would', async () => {
    const { stdout } = await render({ output: 'json' }, (out) => out.list([maria, joao], studentView), { stdoutTTY: true });
    expect(stdout).toBe(`${JSON.stringify([maria, joao], null, 2)}\n`);
    expect(stdout.startsWith('[\n  {\n    "id": "s1",\n')).toBe(true);
  });

  it('prints [] for an empty list, piped or not, and returns 0', async () => {
    for (const stdoutTTY of [false, true]) {
      let count = -1;
      const { stdout, stderr } = await render({ output: 'json' }, async (out) => (count = await out.list([], studentView)), { stdoutTTY });
      expect(stdout).toBe('[]\n');
      expect(stderr).toBe('');
      expect(count).toBe(0);
    }
  });

  it('keeps only --fields, nested as their dot paths say, in their order', async () => {
    const fields = ['product.title', 'id'];
    const { stdout } = await render({ output: 'json', fields }, (out) => out.list([maria, joao], studentView));
    expect(stdout).toBe('[{"product":{"title":"Yoga"},"id":"s1"},{"product":{"title":"Pilates"},"id":"s2"}]\n');
    const one = await render({ output: 'json', fields }, (out) => out.one(maria, studentView));
    expect(one.stdout).toBe('{"product":{"title":"Yoga"},"id":"s1"}\n');
  });

  it('accepts a view column the record lacks, as null', async () => {
    const { stdout } = await render({ output: 'json', fields: ['id', 'created_at'] }, (out) => out.one({ id: 's9' }, studentView));
    expect(stdout).toBe('{"id":"s9","created_at":null}\n');
  });
});

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('unknown --fields', () => {
  const message = 'unknown field "nope" in --fields; available fields: id, name, active, created_at, product.id, product.title, tags';

  it('is a usage error listing the fields of the first record, with nothing on stdout', async () => {
    for (const output of ['json', 'ndjson', 'csv', 'table'] as const) {
      const fake = fakeIo();
      const out = await createOutput(fake.io, globals({ output, fields: ['id', 'nope'] }));
      for (const error of [await failure(out.list([maria, joao], studentView)), await failure(out.one(maria, studentView))]) {
        expect(error).toBeInstanceOf(UsageError);
        expect(error).toHaveProperty('message', message);
      }
      expect(fake.stdout()).toBe('');
    }
  });

  it('names every unknown field', async () => {
    const fake = fakeIo();
    const out = await createOutput(fake.io, globals({ output: 'json', fields: ['x', 'product.nope'] }));
    await expect(out.one({ id: 's1', product: { id: 'p1' } }, studentView))
      .rejects.toThrow('unknown fields "x", "product.nope" in --fields; available fields: id, product.id');
  });
});

describe('ndjson', () => {
  it('prints one compact record per line', async () => {
    const { stdout } = await render({ output: 'ndjson' }, (out) => out.list([maria, joao], studentView), { stdoutTTY: true });
    expect(stdout).toBe(`${JSON.stringify(maria)}\n${JSON.stringify(joao)}\n`);
    const one = await render({ output: 'ndjson' }, (out) => out.one(maria, studentView), { stdoutTTY: true });
    expect(one.stdout).toBe(`${JSON.stringify(maria)}\n`);
  });

  it('prints nothing for an empty list', async () => {
    const { stdout, stderr } = await render({ output: 'ndjson' }, (out) => out.list([], studentView));
    expect(stdout).toBe('');
    expect(stderr).toBe('');
  });

  it('applies --fields', async () => {
    const { stdout } = await render({ output: 'ndjson', fields: ['id', 'product.title'] }, (out) => out.list([maria, joao], studentView));
    expect(stdout).toBe('{"id":"s1","product":{"title":"Yoga"}}\n{"id":"s2","product":{"title":"Pilates"}}\n');
  });
});

describe('streaming', () => {
  /** Yields maria, then waits for release() before yielding joao. */
  function slowSource() {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* records() {
      yield maria;
      await gate;
      yield joao;
    }
    return { records: records(), release };
  }

  it.each([
    ['ndjson', `${JSON.stringify(maria)}\n`],
    ['json', `[${JSON.stringify(maria)}`],
    ['csv', 'id,name,active,created_at,product.id,product.title\ns1,Maria Souza,1,2024-03-05T14:22:09Z,p1,Yoga\n'],
  ] as const)('%s writes the first record before the source is finished', async (output, firstPart) => {
    const fake = fakeIo();
    const out = await createOutput(fake.io, globals({ output }));
    const source = slowSource();
    const done = out.list(source.records, studentView);
    await vi.waitFor(() => expect(fake.stdout()).toBe(firstPart));
    source.release();
    expect(await done).toBe(2);
  });

  it('waits for drain when the destination is full (records of 16K characters or more go out at once)', async () => {
    const chunks: string[] = [];
    const stdout = Object.assign(new EventEmitter(), { write: (chunk: string) => chunks.push(chunk) < 1 }) as EventEmitter & OutStream;
    const fake = fakeIo();
    const out = await createOutput({ ...fake.io, stdout }, globals({ output: 'ndjson' }));
    const big = (id: string) => ({ id, note: 'x'.repeat(16 * 1024) });
    let listed = false;
    const done = out.list([big('a'), big('b')], studentView).then((count) => {
      listed = true;
      return count;
    });
    await vi.waitFor(() => expect(chunks).toHaveLength(1));
    expect(listed).toBe(false); // held until the reader drains
    stdout.emit('drain');
    await vi.waitFor(() => expect(chunks).toHaveLength(2));
    stdout.emit('drain');
    expect(await done).toBe(2);
    expect(chunks.map((chunk) => (JSON.parse(chunk) as { id: string }).id)).toEqual(['a', 'b']);
  });

  it('writes what one turn of the event loop rendered in one chunk, and the rest at close()', async () => {
    const chunks: string[] = [];
    const stdout = { write: (chunk: string) => chunks.push(chunk) > 0 } satisfies OutStream;
    const out = await createOutput({ ...fakeIo().io, stdout }, globals({ output: 'ndjson' }));
    await out.list([maria, joao], studentView);
    expect(chunks).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toEqual([`${JSON.stringify(maria)}\n${JSON.stringify(joao)}\n`]);
    await out.one(maria, studentView);
    await out.close();
    expect(chunks).toHaveLength(2);
  });
});

/** Shared fixtures of the output tests: global options, a view and two students. */
import type { GlobalOptions } from '../../../src/lib/io.js';
import { createOutput, type Output, type View } from '../../../src/output/index.js';
import { fakeIo, type FakeIoOptions } from '../../helpers/fake-io.js';

export function globals(overrides: Partial<GlobalOptions> = {}): GlobalOptions {
  return {
    output: 'table',
    header: true,
    color: true,
    csvRaw: false,
    csvDialect: 'rfc4180',
    quiet: false,
    verbose: false,
    timeoutMs: 30_000,
    retries: 3,
    yes: false,
    pager: true,
    ...overrides,
  };
}

export const studentView: View = {
  noun: 'students',
  columns: [
    { header: 'id', path: 'id' },
    { header: 'name', path: 'name' },
    { header: 'active', path: 'active', format: 'bool01' },
    { header: 'created', path: 'created_at', format: 'datetime' },
    { header: 'product', path: 'product.title' },
  ],
};

export const maria = {
  id: 's1',
  name: 'Maria Souza',
  active: 1,
  created_at: '2024-03-05T14:22:09Z',
  product: { id: 'p1', title: 'Yoga' },
  tags: ['vip', 'early'],
};

export const joao = {
  id: 's2',
  name: 'João, "Jô"\nSouza',
  active: 0,
  created_at: '2024-03-06T09:05:00-03:00',
  product: { id: 'p2', title: 'Pilates' },
  tags: [],
};

/** Renders through createOutput with a fake Io, then closes the output. */
export async function render(
  opts: Partial<GlobalOptions>,
  use: (output: Output) => Promise<unknown>,
  ioOptions: FakeIoOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  const fake = fakeIo(ioOptions);
  const output = await createOutput(fake.io, globals(opts));
  await use(output);
  await output.close();
  return { stdout: fake.stdout(), stderr: fake.stderr() };
}

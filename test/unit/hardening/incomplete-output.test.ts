/**
 * A list that fails midway: json, ndjson and csv have already streamed part
 * of it to stdout, so the error says the output is incomplete and how many
 * records it holds. A table (printed only at the end) and --out (no file is
 * left behind) have printed nothing, and say nothing of the kind.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GlobalOptions, OutputFormat } from '../../../src/lib/io.js';
import { TransientError, ExitCode } from '../../../src/lib/errors.js';
import { globals } from '../output/setup.js';
import { createOutput, type JsonRecord, type View } from '../../../src/output/index.js';
import { fakeIo } from '../../helpers/fake-io.js';

const view: View = { noun: 'students', columns: [{ header: 'ID', path: 'id' }] };
const failure = () => new TransientError('server unavailable (503)', ExitCode.transient, { method: 'GET', path: '/api/v1/students?page=2' }, 503);

async function* failingAfter(count: number): AsyncGenerator<JsonRecord> {
  for (let i = 1; i <= count; i++) yield { id: `s${i}` };
  throw failure();
}

const globalsFor = (output: OutputFormat, overrides: Partial<GlobalOptions> = {}) => globals({ output, quiet: true, color: false, ...overrides });

async function listFailing(output: OutputFormat, count: number, overrides: Partial<GlobalOptions> = {}) {
  const fake = fakeIo();
  const out = await createOutput(fake.io, globalsFor(output, overrides));
  const error = await out.list(failingAfter(count), view).then(() => undefined, (e: unknown) => e as Error);
  await out.abort();
  return { error, stdout: fake.stdout() };
}

const dir = mkdtempSync(join(tmpdir(), 'members-incomplete-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a list that fails midway', () => {
  it.each([
    ['ndjson', '{"id":"s1"}\n{"id":"s2"}\n{"id":"s3"}\n'],
    ['json', '[{"id":"s1"},{"id":"s2"},{"id":"s3"}'],
    ['csv', 'id\ns1\ns2\ns3\n'],
  ] as const)('%s: the records written stay, the error counts them', async (output, stdout) => {
    const result = await listFailing(output, 3);
    expect(result.stdout).toBe(stdout);
    expect(result.error).toBeInstanceOf(TransientError);
    expect(result.error?.message).toBe(
      'server unavailable (503) (GET /api/v1/students?page=2) (output is incomplete: 3 records were written before the failure)',
    );
    expect((result.error as TransientError).exitCode).toBe(6);
  });

  it('says "1 record was" for one', async () => {
    expect((await listFailing('ndjson', 1)).error?.message).toMatch(/\(output is incomplete: 1 record was written before the failure\)$/);
  });

  it('says nothing when nothing was written', async () => {
    const result = await listFailing('ndjson', 0);
    expect(result.stdout).toBe('');
    expect(result.error?.message).toBe('server unavailable (503) (GET /api/v1/students?page=2)');
  });

  it('says nothing for a table, which prints only at the end', async () => {
    const result = await listFailing('table', 5);
    expect(result.stdout).toBe('');
    expect(result.error?.message).not.toContain('incomplete');
  });

  it('says nothing with --out, which leaves no file behind', async () => {
    const result = await listFailing('ndjson', 5, { out: join(dir, 'students.ndjson') });
    expect(result.stdout).toBe('');
    expect(result.error?.message).not.toContain('incomplete');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves an error that is not an Error alone', async () => {
    async function* throwsString(): AsyncGenerator<JsonRecord> {
      yield { id: 's1' };
      throw 'boom';
    }
    const fake = fakeIo();
    const out = await createOutput(fake.io, globalsFor('ndjson'));
    await expect(out.list(throwsString(), view)).rejects.toBe('boom');
  });
});

/** src/lib/atomic-file.ts: the one writer of whole files (`--out`, the sandbox's data file, bin's code cache). */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAtomicFile, writeFileAtomically } from '../../src/lib/atomic-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomically', () => {
  it('replaces the file with the new content, 0600, leaving nothing else beside it', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    await writeFileAtomically(file, '{"new":true}');
    expect(readFileSync(file, 'utf8')).toBe('{"new":true}');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);

    await writeFileAtomically(file, Buffer.from([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
  });

  it('fails on a directory that does not exist', async () => {
    await expect(writeFileAtomically(join(dir, 'missing', 'x'), 'data')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('when the rename fails (a directory in the way), the temporary file is removed and the error surfaces', async () => {
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'inside'), '');
    await expect(writeFileAtomically(join(dir, 'taken'), 'data')).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/) });
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});

describe('openAtomicFile', () => {
  it('the target keeps its old content until commit, and after a discard', async () => {
    const file = join(dir, 'out.csv');
    writeFileSync(file, 'old');
    const discarded = await openAtomicFile(file);
    discarded.write('half of a new ');
    await discarded.discard();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['out.csv']);

    const committed = await openAtomicFile(file);
    committed.write('a,b\n');
    expect(readFileSync(file, 'utf8')).toBe('old');
    await committed.commit();
    expect(readFileSync(file, 'utf8')).toBe('a,b\n');
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('a failed write throws at once (the --out writer turns it into the run\'s error) and leaves the target as it was', async () => {
    const file = join(dir, 'out.csv');
    writeFileSync(file, 'old');
    const broken = await openAtomicFile(file);
    await broken.discard();
    expect(() => broken.write('a,b\n')).toThrow();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });
});


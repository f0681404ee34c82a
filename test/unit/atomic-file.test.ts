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


describe('temporary files of a writer killed outright (SIGKILL, a power cut)', () => {
  const LIVE = 4001;
  const owner = (pid: number) => ({ pid, isRunning: (other: number) => other === pid || other === LIVE });
  const temporaries = () => readdirSync(dir).filter((name) => name.endsWith('.tmp')).sort();

  it('are named with the writer\'s pid; removeNow takes the temporary file away at once, the target left as it was', async () => {
    const file = join(dir, 'results.csv');
    writeFileSync(file, 'old');
    const atomic = await openAtomicFile(file, owner(4000));
    atomic.write('a,b\n');
    expect(temporaries()).toEqual([expect.stringMatching(/^\.results\.csv\.4000\.[0-9a-f]{12}\.tmp$/)]);
    atomic.removeNow();
    expect(readdirSync(dir)).toEqual(['results.csv']);
    expect(readFileSync(file, 'utf8')).toBe('old');
  });

  it('the next write to the same target removes those of dead writers only: a live writer\'s, its own, another target\'s and an unmarked one stay', async () => {
    const file = join(dir, 'results.csv');
    const stay = ['.results.csv.4001.00112233aabb.tmp', '.results.csv.4000.00112233aabb.tmp', '.other.csv.999.00112233aabb.tmp', '.results.csv.00112233aabb.tmp', '.results.csv.999.xyz.tmp'];
    for (const name of [...stay, '.results.csv.999.00112233aabb.tmp', '.results.csv.998.ffeeddccbbaa.tmp']) writeFileSync(join(dir, name), '');
    const atomic = await openAtomicFile(file, owner(4000));
    await atomic.commit();
    expect(readdirSync(dir).sort()).toEqual([...stay, 'results.csv'].sort());
  });

  it('a name with characters a pattern would read otherwise is matched as written', async () => {
    writeFileSync(join(dir, '.a+b(1).csv.999.00112233aabb.tmp'), '');
    writeFileSync(join(dir, '.aab(1).csv.999.00112233aabb.tmp'), '');
    await (await openAtomicFile(join(dir, 'a+b(1).csv'), owner(4000))).commit();
    expect(readdirSync(dir).sort()).toEqual(['.aab(1).csv.999.00112233aabb.tmp', 'a+b(1).csv']);
  });

  it('a directory that does not exist: nothing to list, the open fails as it did', async () => {
    const file = join(dir, 'missing', 'out.csv');
    await expect(openAtomicFile(file, owner(4000))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('publish: a file read as it grows (`members each --out`)', () => {
  it('is in place from publish on, grows with each write, and stays whatever follows: commit, discard, removeNow', async () => {
    for (const end of ['commit', 'discard', 'removeNow'] as const) {
      const file = join(dir, `${end}.csv`);
      writeFileSync(file, 'the old results\n');
      const atomic = await openAtomicFile(file);
      atomic.write('line,result\n');
      expect(readFileSync(file, 'utf8')).toBe('the old results\n');
      atomic.publish();
      expect(readFileSync(file, 'utf8')).toBe('line,result\n');
      atomic.write('2,done\n');
      // Read before any commit: what a process killed now would leave.
      expect(readFileSync(file, 'utf8')).toBe('line,result\n2,done\n');
      atomic.publish();
      atomic.write('3,done\n');
      if (end === 'removeNow') atomic.removeNow();
      else await atomic[end]();
      expect(readFileSync(file, 'utf8')).toBe('line,result\n2,done\n3,done\n');
      if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(readdirSync(dir).sort()).toEqual(['commit.csv', 'discard.csv', 'removeNow.csv']);
  });
});

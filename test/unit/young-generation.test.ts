/**
 * The hold a streamed list runs at each page: V8 is told not to grow its
 * young generation while it is 8 MiB or more, told again that it may once V8
 * has shrunk it, and given its default back before a code cache is written.
 */
import type { HeapSpaceInfo } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HOLD_AT_BYTES, youngGenerationHold } from '../../src/lib/young-generation.js';

const MiB = 2 ** 20;

/** A V8 whose new space has each of `sizes` in turn, one per question. */
function fakeV8(sizes: number[]) {
  const flags: string[] = [];
  let asked = 0;
  const space = (name: string, size: number) => ({ space_name: name, space_size: size }) as HeapSpaceInfo;
  return {
    flags,
    v8: {
      getHeapSpaceStatistics: () => [space('old_space', 64 * MiB), space('new_space', sizes[Math.min(asked++, sizes.length - 1)] as number)],
      setFlagsFromString: (flag: string) => void flags.push(flag),
    },
  };
}

const pages = (hold: { check(): void }, count: number) => {
  for (let page = 0; page < count; page++) hold.check();
};

describe('youngGenerationHold', () => {
  it('says nothing to V8 while the young generation is smaller than 8 MiB', () => {
    const fake = fakeV8([1 * MiB, 4 * MiB, HOLD_AT_BYTES - 1]);
    pages(youngGenerationHold(fake.v8), 3);
    expect(fake.flags).toEqual([]);
  });

  it('stops its growth once, when it has reached 8 MiB', () => {
    const fake = fakeV8([4 * MiB, 8 * MiB, 8 * MiB, 16 * MiB]);
    pages(youngGenerationHold(fake.v8), 10);
    expect(fake.flags).toEqual(['--semi-space-growth-factor=1']);
  });

  it('lets it grow again after V8 shrank it (an idle wait), and holds it again at 8 MiB', () => {
    const fake = fakeV8([8 * MiB, 8 * MiB, 1 * MiB, 2 * MiB, 4 * MiB, 8 * MiB]);
    pages(youngGenerationHold(fake.v8), 6);
    expect(fake.flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2', '--semi-space-growth-factor=1']);
  });

  it('gives V8 its default back on release, only if it had changed it', () => {
    const held = fakeV8([8 * MiB]);
    const hold = youngGenerationHold(held.v8);
    hold.check();
    hold.release();
    hold.release();
    expect(held.flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);

    const never = fakeV8([2 * MiB]);
    const idle = youngGenerationHold(never.v8);
    idle.check();
    idle.release();
    expect(never.flags).toEqual([]);
  });

  it('does nothing on an engine that reports no new space', () => {
    const flags: string[] = [];
    const hold = youngGenerationHold({ getHeapSpaceStatistics: () => [], setFlagsFromString: (flag: string) => void flags.push(flag) });
    hold.check();
    hold.release();
    expect(flags).toEqual([]);
  });
});

/**
 * The hold a streamed list runs at each page: V8 is told to stop growing its
 * young generation once, when it has reached 8 MiB, and never before.
 */
import type { HeapSpaceInfo } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HOLD_AT_BYTES, youngGenerationHold } from '../../src/young-generation.js';

function fakeV8(sizes: number[]) {
  const flags: string[] = [];
  let asked = 0;
  const space = (name: string, size: number) => ({ space_name: name, space_size: size }) as HeapSpaceInfo;
  return {
    flags,
    asked: () => asked,
    v8: {
      getHeapSpaceStatistics: () => {
        const size = sizes[Math.min(asked++, sizes.length - 1)] as number;
        return [space('old_space', 64 * 2 ** 20), space('new_space', size)];
      },
      setFlagsFromString: (flag: string) => void flags.push(flag),
    },
  };
}

describe('youngGenerationHold', () => {
  it('holds at 8 MiB', () => {
    expect(HOLD_AT_BYTES).toBe(8 * 2 ** 20);
  });

  it('says nothing to V8 while the young generation is smaller', () => {
    const fake = fakeV8([2 ** 20, 4 * 2 ** 20, HOLD_AT_BYTES - 1]);
    const hold = youngGenerationHold(fake.v8);
    for (let page = 0; page < 3; page++) hold();
    expect(fake.flags).toEqual([]);
  });

  it('stops its growth once it has reached the size, and then asks no more', () => {
    const fake = fakeV8([4 * 2 ** 20, HOLD_AT_BYTES, 2 * HOLD_AT_BYTES]);
    const hold = youngGenerationHold(fake.v8);
    for (let page = 0; page < 10; page++) hold();
    expect(fake.flags).toEqual(['--semi-space-growth-factor=1']);
    expect(fake.asked()).toBe(2);
  });

  it('does nothing on an engine that reports no new space', () => {
    const flags: string[] = [];
    const hold = youngGenerationHold({ getHeapSpaceStatistics: () => [], setFlagsFromString: (flag: string) => void flags.push(flag) });
    hold();
    expect(flags).toEqual([]);
  });
});

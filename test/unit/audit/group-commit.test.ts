import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/audit/group-commit.js';

/** A write that waits to be let go; the groups it was given, in order. */
function held() {
  const groups: number[][] = [];
  const gates: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const write = (items: number[]) => new Promise<string[]>((resolve, reject) => {
    groups.push(items);
    gates.push({ resolve: () => resolve(items.map((item) => `done ${item}`)), reject });
  });
  const settle = async (index: number, error?: Error) => {
    // The write is asked for on a later turn of the event loop than the add that started it.
    while (gates.length <= index) await new Promise((resolve) => setImmediate(resolve));
    if (error) gates[index]?.reject(error);
    else gates[index]?.resolve();
  };
  return { groups, write, settle };
}

describe('GroupCommit', () => {
  it('sends the first item at once, and those given while it is on its way together next, each with its own result', async () => {
    const { groups, write, settle } = held();
    const commit = new GroupCommit(write);
    const first = commit.add(1);
    const rest = [commit.add(2), commit.add(3), commit.add(4)];
    await settle(0);
    expect(await first).toBe('done 1');
    await settle(1);
    expect(await Promise.all(rest)).toEqual(['done 2', 'done 3', 'done 4']);
    expect(groups).toEqual([[1], [2, 3, 4]]);
    // Idle again: the next item goes at once, alone.
    const later = commit.add(5);
    await settle(2);
    expect(await later).toBe('done 5');
    expect(groups[2]).toEqual([5]);
  });

  it('fails only the group whose write failed; the next group still goes', async () => {
    const { groups, write, settle } = held();
    const commit = new GroupCommit(write);
    const first = commit.add(1);
    const second = commit.add(2);
    await settle(0, new Error('the database is gone'));
    await expect(first).rejects.toThrow('the database is gone');
    await settle(1);
    expect(await second).toBe('done 2');
    expect(groups).toEqual([[1], [2]]);
  });

  it('sends at most `most` items a write', async () => {
    const { groups, write, settle } = held();
    const commit = new GroupCommit(write, { most: 2 });
    const all = [1, 2, 3, 4].map((item) => commit.add(item));
    for (let index = 0; index < 3; index++) await settle(index);
    expect(await Promise.all(all)).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(groups).toEqual([[1], [2, 3], [4]]);
  });

  it('sends up to `parallel` writes at once, each as soon as it is given, and groups what comes beyond', async () => {
    const { groups, write, settle } = held();
    const commit = new GroupCommit(write, { parallel: 2 });
    const all = [1, 2, 3, 4].map((item) => commit.add(item));
    expect(groups).toEqual([[1], [2]]);
    for (let index = 0; index < 3; index++) await settle(index);
    expect(await Promise.all(all)).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(groups).toEqual([[1], [2], [3, 4]]);
  });
});

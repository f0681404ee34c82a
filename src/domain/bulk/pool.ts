/** The concurrency of a bulk run: a bounded pool of workers and a per-key queue. */

/**
 * Runs `task(i)` for i = 0, 1, … count-1, at most `concurrency` at a time, in
 * index order of starting. Once `stopped()` is true no new index is taken;
 * the promise resolves when every task started has settled. Tasks record
 * their own outcome and must not reject.
 */
export async function runPool(
  count: number, concurrency: number, task: (index: number) => Promise<void>, stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !stopped()) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
}

/**
 * Runs the functions given for one key one after another (others in
 * parallel). Two rows naming the same student and product under different
 * keys (an e-mail here, the id there) thus never race: the second sees the
 * first one's change and is skipped instead of failing on a duplicate.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.then(() => undefined, () => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

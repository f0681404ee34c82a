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

/**
 * The results of a run's rows, which finish in any order, handed on in input
 * order: each as soon as it and every row before it have one. A row that
 * never gets one (never started: a stop, a canary) holds back the rows after
 * it until end() says no more will come, and is then left out.
 */
export class InOrder<T> {
  private readonly results: Array<T | undefined>;
  private ended = false;
  private readonly wake = new Wake();

  constructor(count: number) {
    this.results = new Array<T | undefined>(count).fill(undefined);
  }

  set(index: number, result: T): void {
    this.results[index] = result;
    this.wake.notify();
  }

  /** No more results will come. */
  end(): void {
    this.ended = true;
    this.wake.notify();
  }

  has(index: number): boolean {
    return this.results[index] !== undefined;
  }

  /** The results so far, in input order. */
  known(): T[] {
    return this.results.filter((result): result is T => result !== undefined);
  }

  async* [Symbol.asyncIterator](): AsyncGenerator<T> {
    for (let i = 0; i < this.results.length; i++) {
      while (this.results[i] === undefined && !this.ended) await this.wake.next();
      const result = this.results[i];
      if (result !== undefined) yield result;
    }
  }
}

/** Wakes whoever waits in next() whenever notify() is called. */
class Wake {
  private resolve: () => void = () => undefined;
  private promise = this.renew();

  private renew(): Promise<void> {
    return new Promise<void>((resolve) => (this.resolve = resolve));
  }

  next(): Promise<void> {
    return this.promise;
  }

  notify(): void {
    this.resolve();
    this.promise = this.renew();
  }
}

/**
 * Writes of concurrent callers grouped (issue 36): up to `parallel` writes go
 * to the team record at once, each as soon as it is given; beyond that, the
 * items given meanwhile wait and go together in the next write that can
 * start — one round trip and one commit for the rows of a run in flight at
 * once, where each would pay its own, without making a lone row wait. A
 * caller's promise settles when the write holding its item has committed
 * (or failed): an intent is still durable before its change is sent.
 */
interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  /** Writes on their way at once (connections of the pool it may hold). */
  parallel?: number;
  /** Items in one write at most. */
  most?: number;
}

export class GroupCommit<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private writing = 0;
  private readonly parallel: number;
  private readonly most: number;

  /** `write` sends items together and resolves to each one's result, in their order. */
  constructor(private readonly write: (items: T[]) => Promise<R[]>, options: GroupCommitOptions = {}) {
    this.parallel = options.parallel ?? 1;
    this.most = options.most ?? 500;
  }

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.writing < this.parallel) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing++;
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.most);
      try {
        const results = await this.write(group.map((one) => one.item));
        group.forEach((one, index) => one.resolve(results[index] as R));
      } catch (error) {
        for (const one of group) one.reject(error);
      }
    }
    this.writing--;
  }
}

/**
 * Writes of concurrent callers sent as one statement (issue 36): while one
 * write is on its way to the team record, the items given meanwhile wait and
 * go together next — one round trip and one commit for the rows of a run
 * that are in flight at once, where each would pay its own. A caller's
 * promise settles when the write holding its item has committed (or failed):
 * an intent is still durable before its change is sent.
 */
interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private writing = false;

  /** `write` sends items together and resolves to each one's result, in their order. */
  constructor(private readonly write: (items: T[]) => Promise<R[]>, private readonly most = 500) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.most);
      try {
        const results = await this.write(group.map((one) => one.item));
        group.forEach((one, index) => one.resolve(results[index] as R));
      } catch (error) {
        for (const one of group) one.reject(error);
      }
    }
    this.writing = false;
  }
}

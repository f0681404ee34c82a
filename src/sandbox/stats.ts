/** Requests received per route template (`POST /api/v1/students/{id}/products`), and answers per status (429s for benchmarks), for tests. */
export class RequestStats {
  private counts = new Map<string, number>();
  private statuses = new Map<number, number>();
  private total = 0;

  count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  answered(status: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  reset(): void {
    this.counts = new Map();
    this.statuses = new Map();
    this.total = 0;
  }

  toJSON(): { requests: Record<string, number>; statuses: Record<string, number>; total: number } {
    return { requests: Object.fromEntries(this.counts), statuses: Object.fromEntries(this.statuses), total: this.total };
  }
}

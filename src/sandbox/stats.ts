/** Requests received per route template (`POST /api/v1/students/{id}/products`), for tests. */
export class RequestStats {
  private counts = new Map<string, number>();
  private total = 0;

  count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  reset(): void {
    this.counts = new Map();
    this.total = 0;
  }

  toJSON(): { requests: Record<string, number>; total: number } {
    return { requests: Object.fromEntries(this.counts), total: this.total };
  }
}

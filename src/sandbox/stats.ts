import type { Socket } from 'node:net';

/**
 * Requests received per route template (`POST /api/v1/students/{id}/products`),
 * and answers per status (429s for benchmarks), for tests; and what is still
 * under way (requests being answered, connections of members processes open),
 * for a test that kills a client to wait until its last requests have landed.
 */
export class RequestStats {
  private counts = new Map<string, number>();
  private statuses = new Map<number, number>();
  private total = 0;
  private inFlight = 0;
  private readonly clients = new Set<Socket>();

  /** An API request arrived (its body may still be coming); `ended` when it is answered. */
  began(): void {
    this.inFlight++;
  }

  ended(): void {
    this.inFlight--;
  }

  /** A connection a members process sends on (by its User-Agent): counted until it closes. */
  client(socket: Socket): void {
    if (this.clients.has(socket)) return;
    this.clients.add(socket);
    socket.once('close', () => this.clients.delete(socket));
  }

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

  toJSON(): { requests: Record<string, number>; statuses: Record<string, number>; total: number; in_flight: number; client_connections: number } {
    return {
      requests: Object.fromEntries(this.counts), statuses: Object.fromEntries(this.statuses), total: this.total,
      in_flight: this.inFlight, client_connections: this.clients.size,
    };
  }
}

/**
 * The local home's shared rate budget (api/transport/shared-budget.ts):
 * between the processes of one machine, `rate-budgets/KEY.json` in the
 * config directory holds the next free start on that token's timeline. A
 * reservation reads and moves it under `rate-budgets/.lock` (the exclusive
 * create of config/lock.ts, as leases are taken): a crash leaves at most a
 * stale lock, removed after 5 s, and a timeline in the past, which is free.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { withFileLock, type LockOptions } from '../config/lock.js';
import { firstStart, type Reservation, type SharedBudget } from '../api/transport/shared-budget.js';

/** Held for one read and write of a tiny file. */
const GUARD: LockOptions = { timeoutMs: 10_000, staleMs: 5_000, guards: 'the rate budget' };

const Timeline = z.object({ next: z.number() });

export class LocalRateBudget implements SharedBudget {
  private readonly dir: string;

  constructor(configDir: string) {
    this.dir = join(configDir, 'rate-budgets');
  }

  async reserve(reservation: Reservation): Promise<number> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return withFileLock(join(this.dir, '.lock'), () => {
      const path = join(this.dir, `${reservation.key}.json`);
      const { start, next } = firstStart(this.next(path), reservation);
      // Written whole then renamed: a crash mid-write leaves the previous timeline.
      writeFileSync(`${path}.tmp`, JSON.stringify({ next }), { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
      return start;
    }, GUARD);
  }

  /** The timeline's next free start; a missing or unreadable file is a timeline nobody used. */
  private next(path: string): number {
    try {
      return Timeline.parse(JSON.parse(readFileSync(path, 'utf8'))).next;
    } catch {
      return 0;
    }
  }
}

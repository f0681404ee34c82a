/**
 * The port through which the runs on one token share the platform's rate
 * limit (issue 36, item 6): the pacer reserves its next few request starts
 * on a timeline every run of that token draws from, so two runs at once send
 * no faster than one. The session injects an implementation from the change
 * record's home (audit/rate-budget.ts: a locked file between the processes of
 * one machine, a row of the team's PostgreSQL between machines); the api
 * layer knows only this shape.
 */
export interface Reservation {
  /** Whose budget: a hash of the host and token (never the token itself). */
  key: string;
  /** The caller's clock (ms since the epoch): machines of one team keep theirs in sync (NTP). */
  now: number;
  /** How many request starts, `gapMs` apart. */
  count: number;
  gapMs: number;
  /** None starts before this (a Retry-After or Reset the server told one run holds them all). */
  notBefore: number;
}

export interface SharedBudget {
  /** Reserves `count` starts on the key's timeline; resolves to the first (the others follow `gapMs` apart). */
  reserve(reservation: Reservation): Promise<number>;
}

/** Where a reservation's first start falls, given the timeline's next free instant; the new next free instant follows it. */
export function firstStart(next: number, reservation: Reservation): { start: number; next: number } {
  const start = Math.max(next, reservation.now, reservation.notBefore);
  return { start, next: start + reservation.count * reservation.gapMs };
}

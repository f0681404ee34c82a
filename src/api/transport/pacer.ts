/**
 * One pacer per run, in front of every request the run sends (its workers'
 * first attempts and retries alike): a rate-limited server is asked no faster
 * than it answers. With `X-RateLimit-*` headers it waits exactly as told
 * (Remaining 0 → until Reset, or Retry-After, unless longer than the retry
 * policy would wait: that request fails, the others are not held), and once Remaining is down to
 * the requests in flight it starts requests no faster than the limit refills
 * (Limit per second, or per the longest Retry-After seen: a per-minute
 * window; 2 % under), so a token bucket never has to refuse. When
 * Remaining reaches 0 without a Reset (Laravel sends Reset only with its 429),
 * one request goes ahead as a probe and the others wait for its answer: at a
 * per-minute window's end one 429 tells everyone how long to wait, instead of
 * one 429 per worker. A fixed window the run itself opened (its first answer
 * said Remaining = Limit − 1, and no Remaining value ever came twice, as
 * refills make it in a bucket) is not spent at all: once the requests in
 * flight will use up what it told, no more start until a minute after the
 * window opened (Laravel's `throttle:N,1`), and then one probes first.
 * Without headers it adapts as TCP does (AIMD): each 429 doubles the gap between
 * request starts, each success narrows it a little. Pure but for its clock, so
 * it is tested with a fake one.
 */
import { defaultBackoff } from './retry-policy.js';
import type { SharedBudget } from './shared-budget.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or as soon as `cut` does, its timer cleared then (a pending one would keep the process alive). */
  sleep(ms: number, cut?: Promise<void>): Promise<void>;
}

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, cut) => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void cut?.then(() => {
      clearTimeout(timer);
      resolve();
    });
  }),
};

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): number | undefined => {
  const raw = headers[name];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return raw === undefined || !Number.isFinite(value) ? undefined : value;
};

/** Gaps between request starts never grow past this (a 429 storm would otherwise stall a run for minutes). */
const MAX_GAP_MS = 2_000;
const FIRST_GAP_MS = 20;
/** Workers wait this long at most for a probe's answer (one lost to a network error is never observed). */
const PROBE_WAIT_MS = 5_000;
/**
 * A wait the server asks for beyond this is not held by anyone: the retry
 * policy fails such a request (maxRetryAfterMs, "try again after …"), and a
 * gate an hour away would leave the rest of the run asleep, deaf to SIGTERM.
 */
const MAX_WAIT_MS = defaultBackoff.maxRetryAfterMs;
/** Near the end of a told budget, starts come this much slower than the limit refills: jitter must not cost a Retry-After. */
const REFILL_MARGIN = 1.02;
/** A window whose Remaining has only gone down for this long is fixed, not a bucket (which refills every 1/Limit s). */
const FIXED_AFTER_MS = 1_000;
/** How long a fixed window lasts, until a 429 says otherwise: Laravel's throttle:N,1. */
const WINDOW_GUESS_MS = 60_000;
/**
 * Paced starts reserved on the shared budget at once: one reservation (a file
 * lock, a database round trip) per this many paced requests, and a run that
 * ends leaves at most this many unused.
 */
const SLOTS_PER_RESERVATION = 4;
/**
 * For this long after another run on the token is seen pacing (its slots in
 * the shared timeline, or a first answer whose Remaining is half spent), this
 * run stays paced even when Remaining exceeds its own requests in flight: the
 * others' are not counted there.
 */
const CONTENTION_MS = 2_000;
/** An unpaced run under a told limit looks at the shared timeline this often (in the background): is another run pacing there? */
const CHECK_IN_MS = 250;

/** The budget the runs on one token share (shared-budget.ts), and what names it there (the session hashes the token in). */
export interface SharedPacing {
  budget: SharedBudget;
  key: string;
}

export class Pacer {
  /** No request starts before this instant (ms). */
  private gate = 0;
  /** Milliseconds between request starts; 0 while the server never refused. */
  private gap = 0;
  /** When the next request may start, given the gap. */
  private nextStart = 0;
  /** The gap while the told budget (X-RateLimit-Remaining) is down to the requests in flight; 0 otherwise. */
  private budgetGap = 0;
  /** The last budget told, and the pace of its refill: requests starting at once beyond it are paced too. */
  private told?: { remaining: number; limit: number; refillGap: number };
  /** When the last request started. */
  private lastStart = 0;
  /** Requests started and not yet answered (an answer lost to a network error keeps it high: slower, never faster). */
  private inFlight = 0;
  /** The most requests this run had in flight at once. */
  private mostInFlight = 0;
  /** Every request this run started. */
  private started = 0;
  /**
   * How long the server's window is, as far as its answers tell: a second
   * until a Retry-After says longer (a per-minute throttle's first 429), then
   * the longest wait it asked for. The end of a told budget is paced by it.
   */
  private windowMs = 1000;
  /** The budget is spent and the server did not say until when: the next request probes. */
  private exhausted = false;
  private probe?: { answered: Promise<void>; answer: () => void; startsAt: number };
  /** The window the run's own first request opened: when, and the Remaining values seen in it (a repeat means refills). */
  private opened?: { at: number; seen: Set<number>; refilled: boolean };
  /** In a fixed window: requests it still takes, less those in flight; undefined when the window is not known to be fixed. */
  private allowance?: number;

  /** Paced starts this run reserved on the shared budget and has not used, earliest first. */
  private slots: number[] = [];
  /** Reservations one at a time: workers waiting together take consecutive slots. */
  private reserving: Promise<unknown> = Promise.resolve();
  /** Where this run's last reservation ended on the shared timeline: a later first slot means another run reserved between. */
  private reservedUntil = 0;
  /** Until when another run is known to share the budget (CONTENTION_MS). */
  private contendedUntil = 0;
  /** Whether an answer told this run its budget yet. */
  private toldOnce = false;
  /** When this run last looked at the shared timeline without reserving on it. */
  private checkedIn = 0;

  constructor(private readonly clock: Clock = realClock, private readonly shared?: SharedPacing) {
    // A run on a shared budget sends one request before the others: its answer says whether another run spends the budget.
    this.exhausted = shared !== undefined;
  }

  /**
   * The requests in flight against the told budget: in its first bucket,
   * and while another run is seen spending it, a run on a shared budget
   * counts another's as many as its own at their most (unseen, they would
   * start in a burst; another run in its opening burst has all its workers
   * out while this one may have a few). Past it, a run alone counts its own.
   */
  private get spending(): number {
    // In its first bucket a run cannot tell yet: two runs started together each see a fresh bucket at first.
    const opening = this.shared !== undefined && this.started <= (this.told?.limit ?? Infinity);
    return this.inFlight + (opening || this.clock.now() < this.contendedUntil ? this.mostInFlight : 0);
  }

  /** Another run spends the budget: it is paced with, and counted. */
  private contended(now: number): void {
    this.contendedUntil = now + CONTENTION_MS;
  }

  /** Waits for this request's turn. */
  async acquire(): Promise<void> {
    // Another probe may start while this one waits: the 5 s count from this request's arrival, or from the probe's start.
    for (const started = this.clock.now(); this.probe;) {
      const deadline = Math.max(started, this.probe.startsAt) + PROBE_WAIT_MS;
      if (this.clock.now() >= deadline) break;
      await this.clock.sleep(deadline - this.clock.now(), this.probe.answered);
    }
    if (this.allowance !== undefined && this.allowance <= 0) this.windowSpent();
    const now = this.clock.now();
    // Workers that start together after one answer (a list's last page, then a bulk run's changes) must not
    // spend more than it told: once those in flight use it up, the others start at the refill's pace. (At 0
    // the probe below goes first.)
    const told = this.told;
    const beyondTold = told !== undefined && told.remaining > 0 && this.spending >= told.remaining ? this.lastStart + told.refillGap : 0;
    const start = Math.max(now, this.gate, this.nextStart, beyondTold);
    if (this.exhausted) {
      this.exhausted = false;
      let answer = () => {};
      const answered = new Promise<void>((resolve) => (answer = resolve));
      this.probe = { answered, answer, startsAt: start };
      this.allowance = undefined;
    }
    if (this.allowance !== undefined) this.allowance--;
    const shared = now < this.contendedUntil && told ? this.sharedGap(told) : 0;
    if (told && !shared) this.checkIn(now);
    this.nextStart = start + Math.max(this.gap, this.budgetGap, shared);
    this.lastStart = start;
    this.inFlight++;
    this.started++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    // A paced start also takes its turn on the token's shared timeline: the other runs on the token pace there too.
    const paced = this.shared && this.lastGap > 0 ? await this.sharedStart(start, this.lastGap) : start;
    const wait = paced - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
  }

  /**
   * Looks at the shared timeline (in the background, at most every
   * CHECK_IN_MS unless `now`): slots beyond this run's own mean another run
   * paces there, and this one paces with it. Reserves nothing but the gate.
   */
  private checkIn(now: number, force = false): void {
    if (!this.shared || (!force && now - this.checkedIn < CHECK_IN_MS)) return;
    this.checkedIn = now;
    const { budget, key } = this.shared;
    const turn = this.reserving.then(async () => {
      const next = await budget.reserve({ key, now: this.clock.now(), count: 0, gapMs: 0, notBefore: this.gate });
      if (next > Math.max(this.reservedUntil, this.clock.now(), this.gate)) this.contended(this.clock.now());
    }).catch(() => undefined);
    this.reserving = turn;
  }

  /**
   * The gap between the starts of all the runs on the shared timeline: the
   * refill's, narrowed while the budget told holds more than the runs' requests
   * in flight, so that the runs spend that surplus within a window (paced at
   * the refill alone, they would leave it unspent at the end: one run alone
   * spends it at its start).
   */
  private sharedGap(told: { remaining: number; limit: number; refillGap: number }): number {
    const surplus = Math.max(0, told.remaining - this.spending);
    return told.refillGap * told.limit / (told.limit + surplus);
  }

  /** The gap the last start kept to the next (0: not paced). */
  private get lastGap(): number {
    return this.nextStart - this.lastStart;
  }

  /** This run's next slot on the shared budget, no earlier than `start`; reserves a few more when none is left. */
  private sharedStart(start: number, gapMs: number): Promise<number> {
    const { budget, key } = this.shared as SharedPacing;
    const gap = Math.ceil(gapMs);
    const turn = this.reserving.then(async () => {
      // A slot already past is capacity nobody used: taking it now would send a burst.
      while (this.slots.length > 0 && (this.slots[0] as number) < this.clock.now()) this.slots.shift();
      if (this.slots.length === 0) {
        // A budget that does not answer (a database gone) leaves this run paced on its own, as before there was one.
        const first = await budget.reserve({ key, now: this.clock.now(), count: SLOTS_PER_RESERVATION, gapMs: gap, notBefore: Math.max(start, this.gate) })
          .catch(() => undefined);
        if (first === undefined) return start;
        if (first > Math.max(this.reservedUntil, this.clock.now(), start, this.gate)) this.contended(this.clock.now());
        this.reservedUntil = first + SLOTS_PER_RESERVATION * gap;
        this.slots = Array.from({ length: SLOTS_PER_RESERVATION }, (_, index) => first + index * gap);
      }
      return Math.max(start, this.slots.shift() as number);
    });
    this.reserving = turn.catch(() => undefined);
    return turn;
  }

  /** What the server said of its limit, on every answer (retried ones included). */
  observe(status: number, headers: Headers): void {
    try {
      this.learn(status, headers);
    } finally {
      // Whatever the answer said, the requests waiting on a probe may go on (the gate now holds what it told).
      this.probe?.answer();
      this.probe = undefined;
    }
  }

  private learn(status: number, headers: Headers): void {
    const now = this.clock.now();
    this.inFlight = Math.max(0, this.inFlight - 1);
    const limit = header(headers, 'x-ratelimit-limit');
    const remaining = header(headers, 'x-ratelimit-remaining');
    const reset = header(headers, 'x-ratelimit-reset');
    const retryAfter = header(headers, 'retry-after');
    if (status === 429) {
      // Told when: wait that long (all workers); not told: back off multiplicatively.
      const until = retryAfter !== undefined ? now + retryAfter * 1000 : reset !== undefined ? reset * 1000 : undefined;
      if (until !== undefined && this.holdUntil(until, now)) {
        this.windowMs = Math.max(this.windowMs, until - now);
        // The other runs on the token hold too: the wait goes on the shared timeline.
        this.checkIn(now, true);
      }
      if (remaining === undefined) this.gap = Math.min(MAX_GAP_MS, Math.max(FIRST_GAP_MS, this.gap * 2));
      return;
    }
    if (remaining === 0 && reset !== undefined) this.holdUntil(reset * 1000, now);
    this.exhausted = remaining === 0 && reset === undefined;
    this.learnWindow(limit, remaining, now);
    if (limit !== undefined && limit > 0 && remaining !== undefined) {
      const refillGap = (this.windowMs / limit) * REFILL_MARGIN;
      // A run that starts into a budget half spent shares it with another run (or follows one closely): it starts paced.
      if (this.shared && !this.toldOnce && remaining <= limit / 2) this.contended(now);
      this.toldOnce = true;
      this.budgetGap = remaining <= this.spending ? refillGap : 0;
      this.told = { remaining, limit, refillGap };
    }
    // Additive increase of the rate: a success takes a little off the gap.
    if (status < 400 && this.gap > 0) this.gap = Math.max(0, this.gap - Math.max(1, this.gap * 0.05));
  }

  /** Whether the run's window is fixed, and if so how many more requests it takes (see the top of the file). */
  private learnWindow(limit: number | undefined, remaining: number | undefined, now: number): void {
    if (limit === undefined || remaining === undefined) return;
    if (remaining === limit - 1) this.opened = { at: now, seen: new Set(), refilled: false };
    const window = this.opened;
    if (!window) return;
    // Answers come out of order, but a fixed window never tells one value twice.
    if (window.seen.has(remaining)) window.refilled = true;
    window.seen.add(remaining);
    const fixed = !window.refilled && now - window.at >= FIXED_AFTER_MS;
    const allowance = fixed ? remaining - this.inFlight : undefined;
    this.allowance = allowance;
    if (allowance !== undefined && allowance <= 0) this.windowSpent();
  }

  /** The fixed window is spent: nothing starts until it turns over, and then one request probes first. */
  private windowSpent(): void {
    if (this.opened) this.holdUntil(this.opened.at + WINDOW_GUESS_MS, this.clock.now());
    this.opened = undefined;
    this.allowance = undefined;
    this.exhausted = true;
  }

  /** Holds every request until `until`, unless that is further off than the retry policy waits (MAX_WAIT_MS). */
  private holdUntil(until: number, now: number): boolean {
    if (until - now > MAX_WAIT_MS) return false;
    this.gate = Math.max(this.gate, until);
    return true;
  }

  /** For tests and messages: the current gap between request starts. */
  get currentGapMs(): number {
    return Math.max(this.gap, this.budgetGap);
  }
}

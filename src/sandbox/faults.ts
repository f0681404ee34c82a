import type { Reply } from './http.js';
import { Random, streamSeed } from './random.js';

export interface FaultOptions {
  seed: number;
  latencyMs: number;
  /** Fraction (0..1) of requests answered 500 or 503. */
  failRate: number;
  /** Requests per second; undefined for no limit. */
  rateLimit: number | undefined;
}

export type FaultDecision =
  | { kind: 'pass' }
  | { kind: 'throttle'; retryAfter: number }
  /** `afterChange`: the request is carried out, then its answer is replaced by the failure. */
  | { kind: 'fail'; status: 500 | 503; afterChange: boolean };

export const PASS: FaultDecision = { kind: 'pass' };

/**
 * The imperfections of a real server: latency, random 500/503 (from a
 * seeded PRNG, so a run can be replayed) and a token-bucket rate limit.
 */
export class Faults {
  private readonly random: Random;
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly options: FaultOptions,
    now = Date.now(),
  ) {
    this.random = new Random(streamSeed(options.seed, 'faults'));
    this.tokens = options.rateLimit ?? 0;
    this.refilledAt = now;
  }

  decide(method: string, now = Date.now()): FaultDecision {
    const { rateLimit, failRate } = this.options;
    if (rateLimit !== undefined) {
      this.tokens = Math.min(Math.max(rateLimit, 1), this.tokens + ((now - this.refilledAt) / 1000) * rateLimit);
      this.refilledAt = now;
      if (this.tokens < 1) return { kind: 'throttle', retryAfter: Math.max(1, Math.ceil((1 - this.tokens) / rateLimit)) };
      this.tokens -= 1;
    }
    if (failRate > 0 && this.random.next() < failRate) {
      // Half the failures of a POST happen after the change: the client cannot tell whether it took effect.
      return { kind: 'fail', status: this.random.chance(0.5) ? 500 : 503, afterChange: method === 'POST' && this.random.chance(0.5) };
    }
    return PASS;
  }

  /** The answer that replaces the real one. */
  static reply(decision: Exclude<FaultDecision, { kind: 'pass' }>): Reply {
    if (decision.kind === 'throttle') {
      return { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'Retry-After': String(decision.retryAfter), 'X-Sandbox-Fault': 'rate-limit' } };
    }
    return {
      status: decision.status,
      body: { message: decision.status === 500 ? 'Server Error' : 'Service Unavailable' },
      headers: { 'X-Sandbox-Fault': decision.afterChange ? 'after' : 'before' },
    };
  }

  delay(): Promise<void> | undefined {
    const latency = this.options.latencyMs;
    return latency > 0 ? new Promise((resolve) => setTimeout(resolve, latency)) : undefined;
  }
}

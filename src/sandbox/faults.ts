import type { Reply } from './http.js';
import { Random, streamSeed } from './random.js';
import { Throttle, type RateLimit } from './throttle.js';

export interface FaultOptions {
  seed: number;
  latencyMs: number;
  /** Fraction (0..1) of requests answered 500 or 503. */
  failRate: number;
  /** Undefined for no limit. */
  rateLimit: RateLimit | undefined;
}

/** `headers`: the rate limit's, added to whatever the answer turns out to be. */
export type FaultDecision = { headers?: Record<string, string> } & (
  | { kind: 'pass' }
  | { kind: 'throttle' }
  /** `afterChange`: the request is carried out, then its answer is replaced by the failure. */
  | { kind: 'fail'; status: 500 | 503; afterChange: boolean }
);

export const PASS: FaultDecision = { kind: 'pass' };

/**
 * The imperfections of a real server: latency, random 500/503 (from a
 * seeded PRNG, so a run can be replayed) and a token-bucket rate limit.
 */
export class Faults {
  private readonly random: Random;
  private readonly throttle: Throttle | undefined;

  constructor(
    private readonly options: FaultOptions,
    now = Date.now(),
  ) {
    this.random = new Random(streamSeed(options.seed, 'faults'));
    this.throttle = options.rateLimit && new Throttle(options.rateLimit, now);
  }

  decide(method: string, now = Date.now()): FaultDecision {
    const limited = this.throttle?.take(now);
    const headers = limited?.headers;
    if (limited && !limited.allowed) return { kind: 'throttle', headers };
    if (this.options.failRate > 0 && this.random.next() < this.options.failRate) {
      // Half the failures of a POST happen after the change: the client cannot tell whether it took effect.
      return { kind: 'fail', status: this.random.chance(0.5) ? 500 : 503, afterChange: method === 'POST' && this.random.chance(0.5), headers };
    }
    return headers ? { kind: 'pass', headers } : PASS;
  }

  /** The answer that replaces the real one. */
  static reply(decision: Exclude<FaultDecision, { kind: 'pass' }>): Reply {
    if (decision.kind === 'throttle') {
      return { status: 429, body: { message: 'Too Many Attempts.' }, headers: { ...decision.headers, 'X-Sandbox-Fault': 'rate-limit' } };
    }
    return {
      status: decision.status,
      body: { message: decision.status === 500 ? 'Server Error' : 'Service Unavailable' },
      headers: { ...decision.headers, 'X-Sandbox-Fault': decision.afterChange ? 'after' : 'before' },
    };
  }

  delay(): Promise<void> | undefined {
    const latency = this.options.latencyMs;
    return latency > 0 ? new Promise((resolve) => setTimeout(resolve, latency)) : undefined;
  }
}

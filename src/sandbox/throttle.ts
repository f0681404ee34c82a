/**
 * Rate limits with the headers of Laravel's ThrottleRequests middleware:
 * `X-RateLimit-Limit` and `X-RateLimit-Remaining` on every answer, and on a
 * 429 `Retry-After` (seconds) and `X-RateLimit-Reset` (Unix time).
 */
export interface RateLimit {
  limit: number;
  /** `second`: a token bucket refilled continuously; `minute`: Laravel's fixed window (`throttle:60,1`). */
  per: 'second' | 'minute';
}

export interface ThrottleDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

const MINUTE_MS = 60_000;

export class Throttle {
  private tokens: number;
  private refilledAt: number;
  private windowEndsAt = 0;
  private attempts = 0;

  constructor(
    private readonly rate: RateLimit,
    now = Date.now(),
  ) {
    this.tokens = rate.limit;
    this.refilledAt = now;
  }

  take(now = Date.now()): ThrottleDecision {
    return this.rate.per === 'second' ? this.takeToken(now) : this.hitWindow(now);
  }

  private takeToken(now: number): ThrottleDecision {
    const { limit } = this.rate;
    this.tokens = Math.min(Math.max(limit, 1), this.tokens + ((now - this.refilledAt) / 1000) * limit);
    this.refilledAt = now;
    if (this.tokens < 1) return this.refuse(now, Math.max(1, Math.ceil((1 - this.tokens) / limit)));
    this.tokens -= 1;
    return this.allow(Math.floor(this.tokens));
  }

  /** RateLimiter::hit: the window starts with its first request and lasts a minute; attempts over the limit are not counted. */
  private hitWindow(now: number): ThrottleDecision {
    if (now >= this.windowEndsAt) {
      this.windowEndsAt = now + MINUTE_MS;
      this.attempts = 0;
    }
    if (this.attempts >= this.rate.limit) return this.refuse(now, Math.max(1, Math.ceil((this.windowEndsAt - now) / 1000)));
    this.attempts++;
    return this.allow(this.rate.limit - this.attempts);
  }

  private allow(remaining: number): ThrottleDecision {
    return { allowed: true, headers: { 'X-RateLimit-Limit': String(this.rate.limit), 'X-RateLimit-Remaining': String(remaining) } };
  }

  private refuse(now: number, retryAfter: number): ThrottleDecision {
    return {
      allowed: false,
      headers: {
        'X-RateLimit-Limit': String(this.rate.limit),
        'X-RateLimit-Remaining': '0',
        'Retry-After': String(retryAfter),
        'X-RateLimit-Reset': String(Math.floor(now / 1000) + retryAfter),
      },
    };
  }
}

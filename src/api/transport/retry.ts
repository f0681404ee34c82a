/**
 * The retry wiring: undici's RetryHandler (the one retry loop; whole-answer.ts
 * below it turns a broken body into a failure it retries too) asks an
 * Exchange about every failure of one request. The policy (retry-policy.ts)
 * says whether and when; the Exchange keeps the budget (`--retries`, and a
 * deadline for 429s, which never spend it), checks a POST of unknown outcome
 * before it goes again, and queues every resend behind the run's pacer
 * (pacer.ts), as Octokit's retry and throttling plugins wrap its transport.
 */
import type { Dispatcher, RetryHandler } from 'undici';
import retryInterceptor from 'undici/lib/interceptor/retry.js';
import { ApiError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import { monotonicMs } from '../../lib/time/monotonic.js';
import type { Pacer } from './pacer.js';
import {
  RETRYABLE_CODES, RETRYABLE_STATUS, RETRY_METHODS, retryDecision, type Backoff, type Failure, type RetryDecision,
} from './retry-policy.js';

/** The retry interceptor, given our lists: it filters statuses with them, then asks the request's Exchange. */
export function retryOnFailure(maxRetries: number): Dispatcher.DispatcherComposeInterceptor {
  return retryInterceptor({
    maxRetries,
    statusCodes: [...RETRYABLE_STATUS],
    methods: [...RETRY_METHODS] as Dispatcher.HttpMethod[],
    errorCodes: [...RETRYABLE_CODES],
  });
}

export interface RetryOptions {
  /** `--retries`: failures each request may retry (429s aside); 0, no retry at all. */
  retries: number;
  backoff: Backoff;
  /** The run's pacer: retries queue behind the same rate limit as first attempts. */
  pacer: Pacer;
  /** A long wait the server asked for is said, not sat through in silence. */
  notice: (text: string) => void;
}

/** The request an Exchange is about. */
export interface Attempted {
  method: string;
  /** The redacted path and query, for messages. */
  path: string;
  /** For a POST: looks for its effect after a failure whose outcome is unknown (HttpRequest.alreadyApplied). */
  alreadyApplied?: () => Promise<boolean>;
}

/** What one request has been through: its retry budget, and what its error message says. */
export class Exchange {
  /** Failures seen so far, each counted against the budget (429s aside). */
  private attempt = 0;
  /** When the first 429 came: 429s are retried until the rate-limit budget (a deadline) is spent. */
  private firstRateLimit?: number;
  /** Requests sent again. */
  retries = 0;
  /** The last network failure retried (a timeout, a cut connection), to name it if the retry fails too. */
  lastNetworkCode?: string;
  /** A check found the POST's effect: the caller fetches it instead of failing. */
  applied?: boolean;
  /** Why the check of a POST of unknown outcome failed, when it did. */
  checkFailed?: string;

  constructor(private readonly options: RetryOptions, private readonly request: Attempted) {}

  /** The per-request options that hand this exchange to the retry interceptor (merged over the dispatcher's). */
  get dispatchOptions(): { retryOptions: { retry: RetryHandler.RetryCallback } } {
    return { retryOptions: { retry: this.retry } };
  }

  /** ` after 2 retries`, or nothing. */
  get tries(): string {
    return this.retries > 0 ? ` after ${plural(this.retries, 'retry', 'retries')}` : '';
  }

  /** What a failed POST left behind, as far as we know. */
  get postOutcome(): string {
    if (this.applied) return 'the change was applied';
    const check = this.checkFailed ? ` (the check for it failed too: ${this.checkFailed})` : '';
    return `the change may or may not have been applied${check}; check before trying again`;
  }

  /** undici's RetryHandler asks this about every failure; `callback(null)` sends again, `callback(err)` gives up. */
  private readonly retry: RetryHandler.RetryCallback = (err, _context, callback) => {
    const failure = err as Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[]> };
    const status = failure.code === 'UND_ERR_REQ_RETRY' ? failure.statusCode : undefined;
    const decision = this.decide({ method: this.request.method, status, code: failure.code, retryAfter: failure.headers?.['retry-after'] });
    if (decision === null) return callback(err);
    const again = () => this.again(decision, status, failure.code, () => callback(null));
    if (!decision.checkFirst) return again();
    // A POST that may have been applied goes again only when a check finds no trace of it (contract §7.1).
    const { alreadyApplied } = this.request;
    if (!alreadyApplied) return callback(err);
    alreadyApplied().then(
      (applied) => {
        this.applied = applied;
        if (applied) callback(err);
        else again();
      },
      (error: unknown) => {
        this.checkFailed = checkFailure(error);
        callback(err);
      },
    );
  };

  private decide(failure: Failure): RetryDecision | null {
    const { retries, backoff } = this.options;
    // A 429 was refused before any work: it spends the rate-limit budget (a deadline), not one of the --retries
    // (a run under a rate limit must never lose a row to it). --retries 0 still means no retry at all.
    if (failure.status !== 429 || retries === 0) return retryDecision(failure, ++this.attempt, retries, backoff);
    this.firstRateLimit ??= monotonicMs();
    const decision = retryDecision(failure, 1, 1, backoff);
    const waited = monotonicMs() - this.firstRateLimit;
    return decision && waited + decision.delayMs <= backoff.rateLimitBudgetMs ? decision : null;
  }

  /** Sends again after the decision's delay, then the pacer's. */
  private again(decision: RetryDecision, status: number | undefined, code: string | undefined, send: () => void): void {
    const { backoff, notice, pacer } = this.options;
    // A wait longer than any of our own backoffs (a per-minute rate limit's Retry-After) is said, not sat through in silence.
    if (decision.delayMs > backoff.maxMs) {
      const why = status === 429 ? 'rate limited (429)' : `answered ${status ?? code}`;
      notice(`${this.request.method} ${this.request.path}: ${why}; waiting ${Math.ceil(decision.delayMs / 1000)}s as the server asks (Retry-After) before trying again`);
    }
    this.retries++;
    if (status === undefined) this.lastNetworkCode = code;
    // Then the run's pacer: every worker's retries queue behind the same rate limit.
    setTimeout(() => void pacer.acquire().then(send), decision.delayMs);
  }
}

/** The check's failure in a few words: the POST's own error already says what to do. */
function checkFailure(error: unknown): string {
  if (error instanceof ApiError && error.status !== undefined) return `${error.request.method} ${error.request.path} answered ${error.status}`;
  return error instanceof Error ? error.message : String(error);
}

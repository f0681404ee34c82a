/**
 * Contract §7.1: which failures are retried, and how long to wait. Pure, so the
 * rules are tested without a clock; `http.ts` hands these lists to undici's
 * RetryHandler (which filters statuses with them before asking us) and asks
 * `retryDecision` about every failure it sees: one retry layer, one budget.
 */
export const RETRYABLE_STATUS: readonly number[] = [429, 500, 502, 503, 504];

/** Network failures worth another try. ENOTFOUND is not one: a name that does not resolve will not resolve in 250 ms. */
export const RETRYABLE_CODES: readonly string[] = [
  'ECONNRESET', 'ECONNREFUSED', 'ENETDOWN', 'ENETUNREACH', 'EHOSTDOWN',
  'EHOSTUNREACH', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED',
];

/** Every method we send: the RetryHandler asks us about each, and `retryDecision` says which may go again. */
export const RETRY_METHODS: readonly string[] = ['GET', 'PUT', 'DELETE', 'POST', 'PATCH'];

export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** Upper bound on a server's Retry-After we are willing to honour. */
  maxRetryAfterMs: number;
  /** How long one request may keep being answered 429 before it fails (429s do not spend --retries). */
  rateLimitBudgetMs: number;
  random: () => number;
}

export const defaultBackoff: Backoff = { baseMs: 250, maxMs: 8_000, maxRetryAfterMs: 60_000, rateLimitBudgetMs: 300_000, random: Math.random };

export interface Failure {
  method: string;
  /** HTTP status when the server answered, else undefined. */
  status?: number;
  /** Error code for network failures and timeouts. */
  code?: string;
  retryAfter?: string | string[];
}

export interface RetryDecision {
  /** Milliseconds to wait before sending again. */
  delayMs: number;
  /**
   * The request may have taken effect (a POST that got a 5xx or lost its
   * connection): it may go again only after a check finds its effect absent.
   */
  checkFirst: boolean;
}

/** Whether a failure's outcome is unknown: the server may have applied the request. */
export function outcomeUnknown(failure: Failure): boolean {
  return failure.status === undefined ? isRetryableCode(failure.code) : failure.status >= 500;
}

/** What to do before retry number `attempt` (1-based), or null to give up. */
export function retryDecision(failure: Failure, attempt: number, budget: number, backoff: Backoff = defaultBackoff): RetryDecision | null {
  if (attempt > budget) return null;
  if (failure.status !== undefined ? !RETRYABLE_STATUS.includes(failure.status) : !isRetryableCode(failure.code)) return null;
  // A 429 was refused before any work; anything else may have been applied by a POST.
  const checkFirst = failure.method === 'POST' && outcomeUnknown(failure);
  const retryAfter = parseRetryAfter(failure.retryAfter);
  // Sent earlier than the server asked, it would only be refused again: give up and say when to come back.
  if (retryAfter !== undefined && retryAfter > backoff.maxRetryAfterMs) return null;
  return { delayMs: retryAfter ?? backoffDelay(attempt, backoff), checkFirst };
}

/** Exponential, with jitter that spreads the retries of concurrent workers apart. */
export function backoffDelay(attempt: number, backoff: Backoff = defaultBackoff): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (backoff.random() * ceiling) / 2);
}

/** Milliseconds from a Retry-After header (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isRetryableCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_CODES.includes(code);
}

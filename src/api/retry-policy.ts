/**
 * Contract §6: which failures are retried, and how long to wait. Pure, so the
 * rules are tested without a clock; `http.ts` plugs it into undici's
 * RetryHandler, which owns the re-dispatching.
 */
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const RETRYABLE_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ENOTFOUND', 'ENETDOWN', 'ENETUNREACH', 'EHOSTDOWN',
  'EHOSTUNREACH', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED',
]);

export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** Upper bound on a server's Retry-After we are willing to honour. */
  maxRetryAfterMs: number;
  random: () => number;
}

export const defaultBackoff: Backoff = { baseMs: 250, maxMs: 8_000, maxRetryAfterMs: 60_000, random: Math.random };

export interface Failure {
  method: string;
  /** HTTP status when the server answered, else undefined. */
  status?: number;
  /** Error code for network failures and timeouts. */
  code?: string;
  retryAfter?: string | string[];
}

/** Milliseconds to wait before retry number `attempt` (1-based), or null to give up. */
export function retryDelay(failure: Failure, attempt: number, budget: number, backoff: Backoff = defaultBackoff): number | null {
  if (attempt > budget) return null;
  if (failure.status !== undefined) {
    if (!RETRYABLE_STATUS.has(failure.status)) return null;
    // A POST that got a 5xx may have taken effect: the caller checks before resending.
    if (failure.method === 'POST' && failure.status !== 429) return null;
  } else {
    if (failure.method === 'POST' || !failure.code || !RETRYABLE_CODES.has(failure.code)) return null;
  }
  const retryAfter = parseRetryAfter(failure.retryAfter);
  if (retryAfter !== undefined) return Math.min(retryAfter, backoff.maxRetryAfterMs);
  return backoffDelay(attempt, backoff);
}

/** Exponential, with jitter that spreads the retries of concurrent workers apart. */
export function backoffDelay(attempt: number, backoff: Backoff = defaultBackoff): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (backoff.random() * ceiling) / 2);
}

function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function isRetryableCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_CODES.has(code);
}

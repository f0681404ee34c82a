/**
 * The transport: one keep-alive undici dispatcher per run, Bearer auth pinned
 * to the base URL's origin, per-request timeout, and every failure turned
 * into a typed error whose exit code the error boundary reads. Below it,
 * whole-answer.ts hands up only complete answers; above it, retry.ts decides
 * about every failure (with retry-policy.ts) and pacer.ts spaces the sends.
 */
import type { Dispatcher } from 'undici';
// undici's own modules rather than its index, which loads fetch, WebSocket,
// the cache and the mocks as well: half the start-up of a one-request run.
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';
import {
  ApiError, AuthError, NotFoundError, RejectedError, RouteMissError, TransientError, ExitCode,
  type RequestLabel,
} from '../../lib/errors.js';
import { RETRYABLE_STATUS, defaultBackoff, outcomeUnknown, parseRetryAfter, type Backoff } from './retry-policy.js';
import { Exchange, retryOnFailure, type RetryOptions } from './retry.js';
import { redactor } from './redact.js';
import { BodyTooLargeError, bodyText, wholeAnswers, type FailedBodyHolder } from './whole-answer.js';
import { Pacer } from './pacer.js';
import { monotonicMs } from '../../lib/time/monotonic.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type Query = Record<string, string | number | boolean | undefined>;

/** A proxy as messages name it: its URL without credentials, its variable, whether the URL has credentials. */
export interface ProxyNamed {
  shown: string;
  variable: string;
  credentials: boolean;
}

export interface HttpOptions {
  /** Already validated (https, or http on loopback); see config/settings.ts. */
  baseUrl: URL;
  token?: string;
  timeoutMs: number;
  retries: number;
  userAgent: string;
  /** Every secret of the run, so that logs and messages can redact them. */
  secrets: Array<string | undefined>;
  /** `--verbose`: receives one line per exchange. */
  log?: (line: string) => void;
  /** Notices for the user (not with --quiet): a long wait the server asked for, a slow fallback. */
  notice?: (text: string) => void;
  /** Tests inject a MockAgent, a proxy run its proxy agent; a run otherwise gets one keep-alive Agent. */
  dispatcher?: Dispatcher;
  /** The given dispatcher is this client's to close (the proxy agent). */
  ownsDispatcher?: boolean;
  /** The proxy the requests go through (api/proxy.ts), named when it fails: its URL without credentials and its variable. */
  proxy?: ProxyNamed;
  /** Default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Tests inject one with a fake clock; a run otherwise gets its own. */
  pacer?: Pacer;
  backoff?: Backoff;
}

export interface HttpRequest {
  method: Method;
  /** A path below the base URL (`/api/v1/students`), already segment-encoded, or an absolute URL from a pagination link. */
  path: string;
  query?: Query;
  body?: unknown;
  /** The report authenticates by path tokens: no Authorization header. */
  auth?: boolean;
  /** What a 404 means, for the message: `student maria@example.com`. */
  notFound?: string;
  /**
   * For a POST: looks for its effect after a failure whose outcome is unknown.
   * True stops the retries (the caller then fetches what was made); false lets
   * the POST go again. Without it, such a POST is never resent.
   */
  alreadyApplied?: () => Promise<boolean>;
}

/** A request on its way: what was asked, as messages name it, its retries, and its --verbose line. */
interface Sent {
  req: HttpRequest;
  label: RequestLabel;
  exchange: Exchange;
  log: (status: string) => void;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  requestId?: string;
}

/** A pagination or redirect target outside the base URL's origin. */
export class ForeignOriginError extends ApiError {}

/** The server answered 2xx with a body we cannot use. */
export class BadResponseError extends ApiError {}

export class HttpClient {
  readonly baseUrl: URL;
  readonly redact: (text: string) => string;
  /** Tells the user something on stderr (nothing with --quiet). */
  readonly notice: (text: string) => void;
  /** A line for `--verbose` only (nothing otherwise): what a lookup cost. */
  readonly verbose: (text: string) => void;
  private readonly dispatcher: Dispatcher;
  private readonly retrying: RetryOptions;
  private readonly owned?: Dispatcher;

  constructor(private readonly options: HttpOptions) {
    this.baseUrl = options.baseUrl;
    this.redact = redactor(options.secrets);
    this.notice = options.notice ?? (() => undefined);
    this.verbose = (text) => options.log?.(this.redact(text));
    const base = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 32 });
    if (!options.dispatcher || options.ownsDispatcher) this.owned = base;
    const pacer = options.pacer ?? new Pacer();
    this.retrying = { retries: options.retries, backoff: options.backoff ?? defaultBackoff, pacer, notice: this.notice };
    // Interceptors wrap in order: whole answers below the retry handler, which sees each one only once it is complete.
    this.dispatcher = base.compose(wholeAnswers({
      deadlineMs: options.timeoutMs,
      maxBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
      keepBodiesOf: RETRYABLE_STATUS,
      onAnswer: (status, headers) => pacer.observe(status, headers),
    }), retryOnFailure(options.retries));
  }

  /** Resolves a path or link against the base URL; refuses other origins. */
  url(path: string, query?: Query): URL {
    const absolute = /^[a-z][a-z0-9+.-]*:/i.test(path);
    let url: URL;
    try {
      url = absolute ? new URL(path) : new URL(this.baseUrl.pathname.replace(/\/$/, '') + path, this.baseUrl.origin);
    } catch {
      // Only a server's link can be malformed: our own paths are built segment by segment.
      throw new BadResponseError(`the server sent a link that is not a URL (${this.redact(path.slice(0, 200))}); report it to the platform`,
        ExitCode.transient, { method: 'GET', path: this.redact(path.slice(0, 200)) });
    }
    if (url.origin !== this.baseUrl.origin) {
      throw new ForeignOriginError(
        `refusing to follow a link to another origin (${url.origin}); only ${this.baseUrl.origin} receives requests`,
        ExitCode.rejected, { method: 'GET', path: this.redact(url.href) },
      );
    }
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const url = this.url(req.path, req.query);
    const label: RequestLabel = { method: req.method, path: this.redact(url.pathname + url.search) };
    const started = monotonicMs();
    // One budget for the whole exchange: every failure, a broken body's too (whole-answer.ts), goes to its Exchange.
    const exchange = new Exchange(this.retrying, { method: req.method, path: label.path, alreadyApplied: req.alreadyApplied });
    const log = (status: string) => this.options.log?.(
      `${req.method} ${this.redact(url.href)} ${status} ${Math.round(monotonicMs() - started)}ms retries=${exchange.retries}`,
    );
    const sent: Sent = { req, label, exchange, log };

    await this.retrying.pacer.acquire();
    // Where whole-answer.ts keeps the start of a failed answer's body, which undici's RequestRetryError leaves out.
    const failedBody: FailedBodyHolder = {};
    let response: Dispatcher.ResponseData<unknown>;
    try {
      response = await request.call(this.dispatcher, {
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method,
        headers: this.headers(req),
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        // Backstops only: whole-answer.ts's deadline for headers and body together starts as the request is written,
        // no later than undici's header timer and before its idle timer between chunks, so it always ends an attempt first.
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        ...exchange.dispatchOptions,
        failedBody,
      } as Dispatcher.RequestOptions);
    } catch (error) {
      throw this.failure(error, failedBody, sent);
    }
    return this.answer(response, sent);
  }

  /** The answer the retries ended with, read whole (whole-answer.ts): a 2xx's JSON body, or the status's error. */
  private async answer(response: Dispatcher.ResponseData<unknown>, sent: Sent): Promise<HttpResponse> {
    const { label } = sent;
    // The body is all there (whole-answer.ts): reading it cannot fail half-way.
    // Read and decoded once here: undici's body.text() left a 100,000-row report with 20 MiB more live heap (RSS 128 -> 110 MiB).
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk as Buffer);
    const text = bodyText(chunks);
    sent.log(String(response.statusCode));
    const body = parseBody(text);
    const requestId = headerValue(response.headers['x-request-id']);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      if (body === INVALID) {
        throw new BadResponseError(`the server sent a response that is not JSON (status ${response.statusCode})`, ExitCode.transient, label, response.statusCode);
      }
      // Every reader after this one (schemas, dates, redaction, output) recurses: a body 100,000 levels deep would overflow the stack.
      if (deeperThan(body, MAX_JSON_DEPTH)) {
        throw new BadResponseError(`the server sent JSON nested more than ${MAX_JSON_DEPTH} levels deep (status ${response.statusCode}); refusing to read it (report it to the platform)`, ExitCode.transient, label, response.statusCode);
      }
      return { status: response.statusCode, headers: response.headers, body, requestId };
    }
    throw this.statusError(response.statusCode, body === INVALID ? undefined : body, sent, response.headers);
  }

  /**
   * What undici threw: a retryable status that used up the budget (or a checked
   * POST's 5xx), as its RequestRetryError without the body, which whole-answer.ts
   * kept in `failedBody`; a body too large; or a network failure.
   */
  private failure(error: unknown, failedBody: FailedBodyHolder, sent: Sent): ApiError {
    const failed = error as { code?: string; statusCode?: number; headers?: Record<string, string | string[]> };
    if (failed.code === 'UND_ERR_REQ_RETRY' && failed.statusCode) {
      sent.log(String(failed.statusCode));
      const body = parseBody(failedBody.text ?? '');
      return this.statusError(failed.statusCode, body === INVALID ? undefined : body, sent, failed.headers ?? {});
    }
    sent.log('ERR');
    if (error instanceof BodyTooLargeError) {
      return new BadResponseError(`the server sent more than ${formatBytes(error.maxBytes)} in one response; refusing to read on (report it to the platform)`, ExitCode.transient, sent.label, error.status);
    }
    return this.networkError(error, sent.label, sent.exchange);
  }

  private headers(req: HttpRequest): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    if (req.auth !== false && this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  /** Waits for requests in flight; `abandon` (after Ctrl-C or SIGTERM) cancels them instead: nobody wants their answers. */
  async close(abandon = false): Promise<void> {
    if (abandon) await this.owned?.destroy();
    else await this.owned?.close();
  }

  private statusError(status: number, body: unknown, { label, exchange, req }: Sent, headers: Record<string, string | string[] | undefined>): ApiError {
    const server = serverMessage(body);
    const said = server ? `: ${this.redact(server)}` : '';
    if (status === 401 || status === 403) {
      const what = req.auth === false
        ? 'check MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN, or run `members auth login`'
        : 'run `members auth login` or set MEMBERS_TOKEN';
      return new AuthError(`${status === 401 ? 'unauthorized' : 'forbidden'} (${status})${said}; ${what}`, ExitCode.auth, label, status);
    }
    if (status === 404) {
      if (isRouteMiss(body)) {
        const about = req.notFound ? `, so it did not say whether ${req.notFound} exists` : '';
        return new RouteMissError(
          this.redact(`the server has no route for this path (404 without a model${said ? said : ', empty message'})${about}`),
          ExitCode.notFound, label, status,
        );
      }
      const what = req.notFound ? `${req.notFound} not found` : `not found (404)${said}`;
      return new NotFoundError(this.redact(what), ExitCode.notFound, label, status);
    }
    if (status >= 300 && status < 400) {
      const location = headerValue(headers.location) ?? 'nowhere';
      return new ForeignOriginError(
        `the server redirected (${status}) to ${this.redact(location)}; redirects are not followed. Check --base-url`,
        ExitCode.rejected, label, status,
      );
    }
    if (status === 429) {
      const wait = parseRetryAfter(headerValue(headers['retry-after']));
      const next = wait === undefined
        ? 'try again later or raise --retries'
        : `the server asks to wait ${Math.ceil(wait / 1000)}s: try again after ${new Date(Date.now() + wait).toLocaleTimeString()}`;
      return new TransientError(this.redact(`rate limited (429)${exchange.tries}${said}; ${next}`), ExitCode.transient, label, status);
    }
    if (status >= 500) {
      const next = req.method === 'POST' ? exchange.postOutcome : 'try again later or raise --retries';
      return new TransientError(this.redact(`server unavailable (${status})${exchange.tries}${said}; ${next}`), ExitCode.transient, label, status);
    }
    const fieldErrors = serverFieldErrors(body);
    const details = fieldErrors
      ? Object.entries(fieldErrors).map(([field, messages]) => `\n  ${field}: ${messages.join('; ')}`).join('')
      : '';
    return new RejectedError(
      this.redact(`the server rejected the request (${status})${said}${details}`), ExitCode.rejected, label, status, fieldErrors,
    );
  }

  private networkError(error: unknown, label: RequestLabel, exchange: Exchange): ApiError {
    if (error instanceof ApiError) return error;
    const raw = (error as { code?: string }).code;
    // A retry that undici itself gave up on: name the failure that started it.
    const code = raw === 'UND_ERR_REQ_RETRY' ? exchange.lastNetworkCode ?? 'UND_ERR_SOCKET' : raw;
    const tries = exchange.tries;
    const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
    const certificate = code === undefined ? undefined : CERTIFICATE_PROBLEMS[code];
    const proxy = this.options.proxy;
    const what = timedOut
      ? `timed out after ${this.options.timeoutMs} ms${tries}; raise --timeout or try again later`
      : certificate
        ? `the TLS certificate of ${this.baseUrl.origin} was refused: ${certificate} (${code}). ${CA_HELP}`
        : proxy
          ? proxyProblem(proxy, this.baseUrl, code, (error as Error).message, tries)
          : `cannot reach ${this.baseUrl.origin} (${code ?? (error as Error).message})${tries}; check the network and --base-url`;
    const outcome = label.method === 'POST' && (exchange.applied || outcomeUnknown({ method: 'POST', code }))
      ? `; ${exchange.postOutcome}`
      : '';
    return new TransientError(this.redact(what + outcome), ExitCode.transient, label, undefined, undefined, { cause: error });
  }
}

/** Why Node refused a server's certificate, by its error code. */
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in a self-signed CA that is not trusted here (a company proxy or private CA?)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it was issued by a CA that is not trusted here',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it was issued by a CA that is not trusted here (a company proxy or private CA?)',
  UNABLE_TO_GET_ISSUER_CERT: 'its issuer is unknown here',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet (check this machine\'s clock)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it was issued for another host name (check --base-url)',
};

// NODE_USE_SYSTEM_CA arrived in Node 22.19 and 24.6 (NODE_OPTIONS=--use-system-ca in 22.15 and 23.8).
const CA_HELP = 'If your network uses its own certificate authority, point NODE_EXTRA_CA_CERTS at its PEM file'
  + ' (or, on Node 22.19, 24.6 and later, set NODE_USE_SYSTEM_CA=1 to trust the operating system\'s store); see "Proxies and certificates" in docs/configuration.md';

/**
 * A failure on the way through the proxy: a tunnel the proxy refused (undici
 * says `Proxy response (407) !== 200`), or no connection to it at all (with
 * CONNECT, the only host this machine connects to is the proxy).
 */
function proxyProblem(proxy: ProxyNamed, target: URL, code: string | undefined, message: string, tries: string): string {
  const via = `the proxy ${proxy.shown} (${proxy.variable})`;
  const status = /^Proxy response \((\d{3})\)/.exec(message)?.[1];
  if (status === '407') {
    return proxy.credentials
      ? `${via} refused the user name and password in ${proxy.variable} (407); check them (special characters percent-encoded)`
      : `${via} asks for credentials (407): put them in ${proxy.variable} as http://USER:PASSWORD@host:port (percent-encoded)`;
  }
  if (status !== undefined) {
    return `${via} refused the tunnel to ${target.host} (${status})${tries}; ask its administrators to allow ${target.host}, or add it to NO_PROXY if it is reached directly`;
  }
  return `cannot reach ${target.origin} through ${via} (${code ?? message})${tries}; check ${proxy.variable} and the network, or add ${target.hostname} to NO_PROXY if it is reached directly`;
}

/** No answer of this API is near this size; a larger one is a broken or hostile server, not data. */
export const MAX_BODY_BYTES = 64 * 2 ** 20;

const formatBytes = (bytes: number) => (bytes >= 2 ** 20 ? `${bytes / 2 ** 20} MiB` : `${bytes} bytes`);

const INVALID = Symbol('invalid json');

/** No answer of this API nests beyond a handful of levels. */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed body nests arrays or objects more than `max` levels deep; without recursion, which such a body would overflow. */
export function deeperThan(value: unknown, max: number): boolean {
  // Objects alone go on the stack, with their depths beside them: a tuple per value cost a report 1 % of its CPU.
  const nodes: object[] = [];
  const depths: number[] = [];
  const push = (child: unknown, depth: number) => {
    if (typeof child !== 'object' || child === null) return false;
    if (depth > max) return true;
    nodes.push(child);
    depths.push(depth);
    return false;
  };
  if (push(value, 1)) return true;
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const depth = (depths.pop() as number) + 1;
    if (Array.isArray(node)) {
      for (const child of node) if (push(child, depth)) return true;
    } else {
      for (const key in node) if (push(node[key], depth)) return true;
    }
  }
  return false;
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The router's 404, as Laravel words it: an empty message (Laravel 8), or
 * "The route … could not be found." A lookup's 404 names a model or an exception.
 */
function isRouteMiss(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { message, exception } = body as { message?: unknown; exception?: unknown };
  if (exception !== undefined) return false;
  return message === '' || (typeof message === 'string' && /^The route .* could not be found\.?$/.test(message));
}

function serverMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.length > 0 ? message.slice(0, 300) : undefined;
}

function serverFieldErrors(body: unknown): Record<string, string[]> | undefined {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) =>
    [field, (Array.isArray(messages) ? messages : [messages]).map(String)]));
}

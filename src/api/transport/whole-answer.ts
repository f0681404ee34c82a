/**
 * An interceptor below undici's RetryHandler that hands each answer up only
 * once its body is complete. A body that breaks, stalls past the deadline or
 * grows past the cap is then a failure before the handler saw any headers,
 * which it retries from scratch through our retry callback and its one
 * budget: the only retry loop (never a Range request spliced onto half a
 * body, never a second loop around the handler). On the way it tells the
 * pacer of every answer, the retried ones too, and keeps the start of each
 * body the handler may retry (429, 5xx) and would drop: the server's message
 * is what the user needs when the retries run out.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher } from 'undici';

type Handler = Dispatcher.DispatchHandler;
type Controller = Parameters<NonNullable<Handler['onResponseStart']>>[0];
type Headers = Record<string, string | string[] | undefined>;

/** Enough for any JSON error message; a larger body is an HTML page we would not print anyway. */
const KEEP_BYTES = 4096;

/**
 * A body as text: UTF-8 without a leading byte-order mark, as undici's
 * body.text() and fetch read it (a PHP file saved with a BOM puts one before
 * every answer of a Laravel app, and JSON.parse refuses it).
 */
export function bodyText(chunks: readonly Buffer[]): string {
  let text = '';
  if (chunks.length === 1) {
    text = (chunks[0] as Buffer).toString('utf8');
  } else {
    // Chunk by chunk (a character may straddle two), not concatenated first: a 250 KB Buffer per page of a report
    // came from malloc, and a million rows left RSS higher for it.
    const decoder = new StringDecoder('utf8');
    for (const chunk of chunks) text += decoder.write(chunk);
    text += decoder.end();
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Per request (in the dispatch options): where the body of a retryable answer is kept. */
export interface FailedBodyHolder {
  text?: string;
}

/** The body passed the cap: a broken or hostile server, not a reason to try again. */
export class BodyTooLargeError extends Error {
  readonly code = 'MEMBERS_BODY_TOO_LARGE';
  constructor(readonly maxBytes: number, readonly status: number) {
    super(`response body larger than ${maxBytes} bytes`);
  }
}

export interface WholeAnswerOptions {
  /**
   * --timeout: from the moment the request goes out on a connection, its
   * headers and its whole body must arrive within this, however it trickles.
   * One deadline per attempt, not one per phase; each retry has its own.
   */
  deadlineMs: number;
  maxBytes: number;
  /** Statuses whose bodies are kept in the request's `failedBody` holder. */
  keepBodiesOf: readonly number[];
  /** Every answer's status and headers, as they arrive. */
  onAnswer?: (status: number, headers: Headers) => void;
}

/** An attempt cut by the deadline fails like undici's own timeouts, named by the phase it was in: retryable, for idempotent requests. */
const deadlinePassed = (ms: number, headersIn: boolean) => (headersIn
  ? Object.assign(new Error(`body not received within ${ms} ms`), { code: 'UND_ERR_BODY_TIMEOUT' })
  : Object.assign(new Error(`headers not received within ${ms} ms`), { code: 'UND_ERR_HEADERS_TIMEOUT' }));

/** HTTP forbids a body after 204, 205 and 304, so undici counts one as a length mismatch; the status line is the answer. */
const noContentWithBody = (status: number, error: unknown) =>
  (status === 204 || status === 205 || status === 304) && (error as { code?: string }).code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';

export function wholeAnswers(options: WholeAnswerOptions): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new WholeAnswer(options, opts, handler));
}

interface HeldAnswer {
  status: number;
  headers: Headers;
  message?: string;
  chunks: Buffer[];
  size: number;
}

/**
 * One attempt's handler below, and the controller the handler above sees.
 * A class, not a literal of closures: with closures a page's buffers were
 * promoted at every young collection (56 KB of objects each time against
 * 2 KB without this layer), and 20 MiB of socket buffers waited for a full
 * collection in a million-row report.
 */
class WholeAnswer implements Handler {
  readonly #options: WholeAnswerOptions;
  readonly #handler: Handler;
  readonly #holder: FailedBodyHolder;
  #inner: Controller | undefined;
  #answer: HeldAnswer | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  // What the handler above sees: aborted only when it aborted. Our own aborts (deadline, cap) are failures it may retry.
  #abortedAbove = false;
  #reasonAbove: Error | null = null;
  #pausedAbove = false;

  constructor(options: WholeAnswerOptions, opts: Dispatcher.DispatchOptions, handler: Handler) {
    this.#options = options;
    this.#handler = handler;
    this.#holder = (opts as { failedBody?: FailedBodyHolder }).failedBody ?? {};
  }

  // ---- the controller above

  abort(reason: Error): void {
    this.#abortedAbove = true;
    this.#reasonAbove = reason;
    this.#inner?.abort(reason);
  }

  // The answer is held here whole: there is nothing left to pause once the handler above has it.
  pause(): void {
    this.#pausedAbove = true;
  }

  resume(): void {
    this.#pausedAbove = false;
  }

  get aborted(): boolean {
    return this.#abortedAbove;
  }

  get reason(): Error | null {
    return this.#reasonAbove;
  }

  get paused(): boolean {
    return this.#pausedAbove;
  }

  // ---- the handler below

  onRequestStart(controller: Controller, context: unknown): void {
    this.#inner = controller;
    // The clock starts as the request is written, not at the headers: headers at 0.9 T and a body taking 0.9 T more must fail.
    this.#timer = setTimeout(WholeAnswer.#expire, this.#options.deadlineMs, this);
    this.#handler.onRequestStart?.(this.#above, context);
  }

  onRequestUpgrade(_controller: Controller, status: number, headers: Headers, socket: Parameters<NonNullable<Handler['onRequestUpgrade']>>[3]): void {
    this.#handler.onRequestUpgrade?.(this.#above, status, headers, socket);
  }

  onResponseStart(_controller: Controller, status: number, headers: Headers, message?: string): void {
    this.#options.onAnswer?.(status, headers);
    this.#answer = { status, headers, message, chunks: [], size: 0 };
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    const answer = this.#answer;
    if (!answer) return;
    answer.size += chunk.length;
    if (answer.size > this.#options.maxBytes) {
      this.#answer = undefined;
      controller.abort(new BodyTooLargeError(this.#options.maxBytes, answer.status));
      return;
    }
    answer.chunks.push(chunk);
  }

  onResponseEnd(_controller: Controller, trailers: Headers): void {
    clearTimeout(this.#timer);
    if (this.#answer) this.#handUp(trailers);
  }

  onResponseError(_controller: Controller, error: Error): void {
    clearTimeout(this.#timer);
    if (this.#answer && noContentWithBody(this.#answer.status, error)) {
      // The status line alone: the bytes undici counted as a body are dropped, their size with them.
      this.#answer = { ...this.#answer, chunks: [], size: 0 };
      return this.#handUp({});
    }
    this.#answer = undefined;
    this.#handler.onResponseError?.(this.#above, error);
  }

  /** The deadline timer's callback: static, so the timer holds no closure, and private to the class. */
  static #expire(answer: WholeAnswer): void {
    answer.#inner?.abort(deadlinePassed(answer.#options.deadlineMs, answer.#answer !== undefined));
  }

  get #above(): Controller {
    return this as unknown as Controller;
  }

  #handUp(trailers: Headers): void {
    const held = this.#answer as HeldAnswer;
    this.#answer = undefined;
    if (this.#options.keepBodiesOf.includes(held.status)) this.#holder.text = bodyText([Buffer.concat(held.chunks, Math.min(held.size, KEEP_BYTES))]);
    this.#handler.onResponseStart?.(this.#above, held.status, held.headers, held.message);
    // As they came: the reader decodes them one by one (bodyText), with no copy of the whole body in between.
    for (const chunk of held.chunks) this.#handler.onResponseData?.(this.#above, chunk);
    // The retry handler throws here to retry a retryable status; undici then reports it to onResponseError below.
    this.#handler.onResponseEnd?.(this.#above, trailers);
  }
}


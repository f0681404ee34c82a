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
import type { Dispatcher } from 'undici';

type Handler = Dispatcher.DispatchHandler;
type Controller = Parameters<NonNullable<Handler['onResponseStart']>>[0];
type Headers = Record<string, string | string[] | undefined>;

/** Enough for any JSON error message; a larger body is an HTML page we would not print anyway. */
const KEEP_BYTES = 4096;

/** Per request (in the dispatch options): where the body of a retryable answer is kept. */
/**
 * A body as text: UTF-8 without a leading byte-order mark, as undici's
 * body.text() and fetch read it (a PHP file saved with a BOM puts one before
 * every answer of a Laravel app, and JSON.parse refuses it).
 */
export function bodyText(bytes: Buffer): string {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

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
  return (dispatch) => (opts, handler) => {
    const holder = (opts as { failedBody?: FailedBodyHolder }).failedBody ?? {};
    let inner: Controller | undefined;
    let answer: { status: number; headers: Headers; message?: string; chunks: Buffer[]; size: number } | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // What the handler above sees: aborted only when it aborted. Our own aborts (deadline, cap) are failures it may retry.
    let abortedAbove = false;
    let reasonAbove: Error | null = null;
    let pausedAbove = false;
    const above = {
      abort(reason: Error) {
        abortedAbove = true;
        reasonAbove = reason;
        inner?.abort(reason);
      },
      // The answer is held here whole: there is nothing left to pause once the handler above has it.
      pause: () => void (pausedAbove = true),
      resume: () => void (pausedAbove = false),
      get aborted() {
        return abortedAbove;
      },
      get reason() {
        return reasonAbove;
      },
      get paused() {
        return pausedAbove;
      },
    } as unknown as Controller;

    const handUp = (trailers: Headers) => {
      const held = answer as NonNullable<typeof answer>;
      answer = undefined;
      const body = Buffer.concat(held.chunks);
      if (options.keepBodiesOf.includes(held.status)) holder.text = bodyText(body.subarray(0, KEEP_BYTES));
      handler.onResponseStart?.(above, held.status, held.headers, held.message);
      if (body.length > 0) handler.onResponseData?.(above, body);
      // The retry handler throws here to retry a retryable status; undici then reports it to onResponseError below.
      handler.onResponseEnd?.(above, trailers);
    };

    return dispatch(opts, {
      onRequestStart(controller, context) {
        inner = controller;
        // The clock starts as the request is written, not at the headers: headers at 0.9 T and a body taking 0.9 T more must fail.
        timer = setTimeout(() => controller.abort(deadlinePassed(options.deadlineMs, answer !== undefined)), options.deadlineMs);
        handler.onRequestStart?.(above, context);
      },
      onRequestUpgrade: (_controller, status, headers, socket) => handler.onRequestUpgrade?.(above, status, headers, socket),
      onResponseStart(_controller, status, headers, message) {
        options.onAnswer?.(status, headers as Headers);
        answer = { status, headers: headers as Headers, message, chunks: [], size: 0 };
      },
      onResponseData(controller, chunk: Buffer) {
        if (!answer) return;
        answer.size += chunk.length;
        if (answer.size > options.maxBytes) {
          const { status } = answer;
          answer = undefined;
          controller.abort(new BodyTooLargeError(options.maxBytes, status));
          return;
        }
        answer.chunks.push(chunk);
      },
      onResponseEnd(_controller, trailers) {
        clearTimeout(timer);
        if (answer) handUp(trailers as Headers);
      },
      onResponseError(_controller, error) {
        clearTimeout(timer);
        if (answer && noContentWithBody(answer.status, error)) {
          answer.chunks = [];
          return handUp({});
        }
        answer = undefined;
        handler.onResponseError?.(above, error);
      },
    });
  };
}

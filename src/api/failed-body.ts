/**
 * undici's RetryHandler drops the body of an answer it may retry (429, 5xx),
 * and gives up with an error that has only the status and headers; yet the
 * server's message ("Too Many Attempts.", a maintenance notice) is what the
 * user needs. This interceptor sits below the retry handler and keeps the
 * first few KB of every such answer in the request's `failedBody` holder.
 */
import type { Dispatcher } from 'undici';

/** Enough for any JSON error message; a larger body is an HTML page we would not print anyway. */
const KEEP_BYTES = 4096;

export interface FailedBodyHolder {
  text?: string;
}

type Handler = Dispatcher.DispatchHandler;
type Controller = Parameters<NonNullable<Handler['onResponseStart']>>[0];

export function keepFailedBodies(
  statuses: readonly number[], onAnswer: (status: number, headers: Record<string, string | string[] | undefined>) => void = () => undefined,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const holder = (opts as { failedBody?: FailedBodyHolder }).failedBody ?? {};
    let chunks: Buffer[] | undefined;
    let kept = 0;
    const wrapped: Handler = {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
      onResponseStart(controller: Controller, status, headers, message) {
        // Every attempt's answer, the retried ones too: what the pacer learns the rate limit from.
        onAnswer(status, headers as Record<string, string | string[] | undefined>);
        chunks = statuses.includes(status) ? [] : undefined;
        kept = 0;
        return handler.onResponseStart?.(controller, status, headers, message);
      },
      onResponseData(controller: Controller, chunk: Buffer) {
        if (chunks && kept < KEEP_BYTES) {
          chunks.push(chunk.subarray(0, KEEP_BYTES - kept));
          kept += Math.min(chunk.length, KEEP_BYTES - kept);
        }
        return handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd(controller: Controller, trailers) {
        if (chunks) holder.text = Buffer.concat(chunks).toString('utf8');
        return handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    };
    return dispatch(opts, wrapped);
  };
}

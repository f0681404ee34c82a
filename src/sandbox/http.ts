import type { IncomingHttpHeaders } from 'node:http';
import type { Dialect } from './dialect.js';
import type { SandboxStore } from './store.js';

/** What a handler answers; the server serialises `body` as JSON (none for 204). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An error answer; handlers throw it and the server turns it into a Reply. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message: string } & Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }

  get reply(): Reply {
    return { status: this.status, body: this.body, headers: this.headers };
  }
}

export interface RequestContext {
  readonly method: string;
  /** `http://host:port` as the client addressed the server (Host header), for absolute links. */
  readonly origin: string;
  /** The path as received, still percent-encoded. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly store: SandboxStore;
  /** How answers are worded (the default, or Laravel's shapes). */
  readonly dialect: Dialect;
  /** A decoded path parameter of the matched route template. */
  param(name: string): string;
}

export function data(value: unknown, status = 200): Reply {
  return { status, body: { data: value } };
}

export const NO_CONTENT: Reply = { status: 204 };

export function notFound(message: string, exception: string): HttpError {
  return new HttpError(404, { message, exception });
}

/** The request body as a JSON object; an empty body counts as `{}` (as Laravel reads it). */
export function jsonBody(ctx: RequestContext): Record<string, unknown> {
  if (ctx.body.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.body);
  } catch {
    throw new HttpError(400, { message: 'The request body is not valid JSON.' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(400, { message: 'The request body must be a JSON object.' });
  }
  return parsed as Record<string, unknown>;
}

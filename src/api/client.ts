/**
 * Validates response bodies against the zod schemas, on top of the transport;
 * the one way above api/ to send anything (the transport itself stays inside).
 */
import type { z } from 'zod';
import { CliError, ExitCode } from '../lib/errors.js';
import { normaliseDates } from '../lib/time/zones.js';
import { BadResponseError, HttpClient, type HttpRequest, type HttpResponse } from './transport/http.js';

export interface Result<T> {
  data: T;
  requestId?: string;
}

/**
 * zod compiles a parser per object schema the first time it checks one (`new
 * Function`, which no code cache keeps): a page of records pays that back
 * within the page, a single record never does (one GET: 3 ms of its 55 ms of
 * CPU). So a body without a list of records is checked by zod's generic parser.
 */
function holdsList(body: unknown): boolean {
  return Array.isArray(body) || (typeof body === 'object' && body !== null && Array.isArray((body as { data?: unknown }).data));
}

function safeParse<S extends z.ZodType>(schema: S, body: unknown): ReturnType<S['safeParse']> | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } {
  try {
    return schema.safeParse(body, { jitless: !holdsList(body) }) as ReturnType<S['safeParse']>;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { success: false, error: { issues: [{ path: [], message: 'nested too deeply' }] } };
  }
}

/** Told of each whole list of products or courses a run reads (the completion catalog, config/catalog-cache.ts). */
export type CatalogObserver = (kind: 'products' | 'courses', items: ReadonlyArray<{ id: string; title?: string | null }>) => void;

/**
 * What the domain and the commands ask of a client. The client that talks to
 * the server (HttpApi) is one; the one `members each` checks its rows with
 * (StoppingApi) is another, with no transport at all.
 */
export interface Api {
  /** Told of each whole list of products or courses read through this client; absent where nothing keeps them. */
  readonly onCatalog?: CatalogObserver;
  /** Sends and validates against `schema`. */
  call<S extends z.ZodType>(schema: S, req: HttpRequest): Promise<Result<z.infer<S>>>;
  /** Any request, its body as the server sent it, unvalidated (`members api`). */
  raw(req: HttpRequest): Promise<HttpResponse>;
  /** For 204 answers: nothing to validate. */
  send(req: HttpRequest): Promise<{ requestId?: string }>;
  /** Text with the run's secrets replaced by `***`. */
  redact(text: string): string;
  /** Tells the user something on stderr (nothing with --quiet). */
  notice(text: string): void;
  /** A line for `--verbose` only. */
  verbose(text: string): void;
  /** The same client for dry runs: it sends nothing but GET. */
  reading(): Api;
}

/** The client over the HTTP transport; the session that opens it closes it. */
export class HttpApi implements Api {
  /** Set by the session; absent in tests that build a client by hand. */
  onCatalog?: CatalogObserver;

  /** `readOnly`: refuses anything but GET, so that a dry run cannot change anything, whatever code runs in it. */
  constructor(private readonly http: HttpClient, private readonly readOnly = false) {}

  /** The same client, for dry runs: read-only by construction. */
  reading(): HttpApi {
    const api = new HttpApi(this.http, true);
    api.onCatalog = this.onCatalog;
    return api;
  }

  private guard(req: HttpRequest): void {
    if (this.readOnly && req.method !== 'GET') {
      throw new CliError(`internal error: a dry run tried to send ${req.method} ${req.path}; nothing was sent. Please report it`, ExitCode.internal);
    }
  }

  /** Sends and validates; the value returned is the server's own object, so its key order survives into csv. */
  async call<S extends z.ZodType>(schema: S, req: HttpRequest): Promise<Result<z.infer<S>>> {
    this.guard(req);
    const response = await this.http.send(req);
    // A body nested thousands of levels deep overflows the stack of any recursive check: a bad response, not a crash.
    const checked = safeParse(schema, response.body);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue ? issue.path.join('.') || '(body)' : '(body)';
      throw new BadResponseError(
        `unexpected response from the server: ${where}: ${issue?.message ?? 'invalid'}; the API may have changed, report it with --verbose output`,
        ExitCode.internal, { method: req.method, path: this.http.redact(this.http.url(req.path, req.query).pathname) }, response.status,
      );
    }
    // One reading of date-only fields for every command and format (time/zones.ts).
    normaliseDates(response.body);
    return { data: response.body as z.infer<S>, requestId: response.requestId };
  }

  /** The escape hatch (`members api`): any request, its body as the server sent it, unvalidated. */
  async raw(req: HttpRequest): Promise<HttpResponse> {
    this.guard(req);
    return this.http.send(req);
  }

  /** Text with the run's secrets replaced by `***` (a body may hold the report's tokens). */
  redact(text: string): string {
    return this.http.redact(text);
  }

  /** Tells the user something on stderr (nothing with --quiet): a slow fallback, a long wait. */
  notice(text: string): void {
    this.http.notice(text);
  }

  /** A line for `--verbose` only, among the exchanges it logs. */
  verbose(text: string): void {
    this.http.verbose(text);
  }

  /** For 204 answers: nothing to validate. */
  async send(req: HttpRequest): Promise<{ requestId?: string }> {
    this.guard(req);
    const response = await this.http.send(req);
    return { requestId: response.requestId };
  }

  close(abandon = false): Promise<void> {
    return this.http.close(abandon);
  }
}

/**
 * A client that sends nothing: every request throws `stop()` instead. A
 * command checked before a run (`members each`) goes this far and no further.
 */
export class StoppingApi implements Api {
  constructor(private readonly stop: () => Error) {}

  call<S extends z.ZodType>(): Promise<Result<z.infer<S>>> {
    return Promise.reject(this.stop());
  }

  raw(): Promise<HttpResponse> {
    return Promise.reject(this.stop());
  }

  send(): Promise<{ requestId?: string }> {
    return Promise.reject(this.stop());
  }

  // It holds no secrets and has no one to tell: the row's own checks speak for it.
  redact(text: string): string {
    return text;
  }

  notice(): void {}

  verbose(): void {}

  // It sends nothing at all, GET included.
  reading(): Api {
    return this;
  }
}

/** Validates response bodies against the zod schemas, on top of the transport. */
import type { z } from 'zod';
import { CliError, ExitCode } from '../errors.js';
import { normaliseDates } from '../time/zones.js';
import { BadResponseError, HttpClient, type HttpRequest } from './http.js';

export interface Result<T> {
  data: T;
  requestId?: string;
}

export class Api {
  /** `readOnly`: refuses anything but GET, so that a dry run cannot change anything, whatever code runs in it. */
  constructor(readonly http: HttpClient, private readonly readOnly = false) {}

  /** The same client, for dry runs: read-only by construction. */
  reading(): Api {
    return new Api(this.http, true);
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
    const checked = schema.safeParse(response.body);
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

  /** For 204 answers: nothing to validate. */
  async send(req: HttpRequest): Promise<{ requestId?: string }> {
    this.guard(req);
    const response = await this.http.send(req);
    return { requestId: response.requestId };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

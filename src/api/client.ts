/** Validates response bodies against the zod schemas, on top of the transport. */
import type { z } from 'zod';
import { ExitCode } from '../errors.js';
import { normaliseDates } from '../time/zones.js';
import { BadResponseError, HttpClient, type HttpRequest } from './http.js';

export interface Result<T> {
  data: T;
  requestId?: string;
}

export class Api {
  constructor(readonly http: HttpClient) {}

  /** Sends and validates; the value returned is the server's own object, so its key order survives into csv. */
  async call<S extends z.ZodType>(schema: S, req: HttpRequest): Promise<Result<z.infer<S>>> {
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
    const response = await this.http.send(req);
    return { requestId: response.requestId };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

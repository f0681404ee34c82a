/**
 * The one request that is not to the platform: the npm registry's document of
 * this package, for the update check (config/update-notice.ts), made by a
 * process of its own that no one waits for. Through the run's proxy when one
 * is set; abbreviated metadata (what npm install asks for), read to a cap, in
 * one deadline for the whole exchange.
 */
import request from 'undici/lib/api/api-request.js';
import { dispatcherFor } from './transport/proxy.js';

const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** The registry's JSON document at `url`; rejects on any failure, or when `timeoutMs` ends first. */
export async function fetchRegistryDocument(url: URL, options: { env: Record<string, string | undefined>; timeoutMs: number; userAgent: string }): Promise<unknown> {
  const dispatcher = await dispatcherFor(url, options.env);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await request.call(dispatcher, {
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'GET',
      headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8', 'user-agent': options.userAgent },
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_DOCUMENT_BYTES) throw new Error(`the registry's document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
    if (response.statusCode !== 200) throw new Error(`the registry answered ${response.statusCode}`);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

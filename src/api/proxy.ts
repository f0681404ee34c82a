/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY (lowercase first, as curl reads them):
 * behind an egress proxy the API is reached through it, with undici's
 * EnvHttpProxyAgent. HTTPS goes through a CONNECT tunnel, so the proxy never
 * sees the Authorization header. Loaded only when a proxy variable is set.
 */
import type { Dispatcher } from 'undici';
import { UsageError } from '../errors.js';

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

const read = (env: Record<string, string | undefined>, name: string) => {
  const value = env[name.toLowerCase()] ?? env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
};

/** The proxy settings of the environment, or undefined when no proxy is set (the direct path stays as light as ever). */
export function proxyFromEnv(env: Record<string, string | undefined>): ProxySettings | undefined {
  const settings: ProxySettings = {
    httpProxy: read(env, 'HTTP_PROXY'),
    httpsProxy: read(env, 'HTTPS_PROXY'),
    noProxy: read(env, 'NO_PROXY'),
  };
  if (!settings.httpProxy && !settings.httpsProxy) return undefined;
  for (const [name, value] of [['HTTP_PROXY', settings.httpProxy], ['HTTPS_PROXY', settings.httpsProxy]] as const) {
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`${name} is not a URL (${JSON.stringify(value.replace(/\/\/[^@/]*@/, '//***@'))}); use e.g. http://proxy.example.com:3128`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`${name} must be an http:// or https:// proxy URL, not ${url.protocol}`);
    }
  }
  return settings;
}

/**
 * A dispatcher that sends through the proxies. The whole undici index is
 * loaded here: its proxy agent opens tunnels with `Dispatcher.prototype.connect`,
 * which only the index attaches (src/api/http.ts imports undici's modules one by one).
 */
export async function proxyDispatcher(settings: ProxySettings): Promise<Dispatcher> {
  // A CommonJS module: bundled, its exports arrive as the namespace's default.
  const undici = await import('undici') as typeof import('undici') & { default?: typeof import('undici') };
  const { EnvHttpProxyAgent } = undici.default ?? undici;
  return new EnvHttpProxyAgent({ ...settings, noProxy: settings.noProxy ?? '', keepAliveTimeout: 10_000, connections: 32 });
}

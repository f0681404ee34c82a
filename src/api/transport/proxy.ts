/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY (lowercase first, as curl reads them):
 * behind an egress proxy the API is reached through it, with undici's
 * EnvHttpProxyAgent. HTTPS goes through a CONNECT tunnel, so the proxy never
 * sees the Authorization header; this machine's loopback (the only place
 * plain http may go) is always reached directly. Loaded only when a proxy
 * variable is set.
 */
import type { Dispatcher } from 'undici';
import { UsageError } from '../../lib/errors.js';
import { isLoopback } from '../../config/settings.js';

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** The proxy a run's requests go through, for messages: its URL without credentials and the variable that named it. */
export interface ProxyRoute {
  settings: ProxySettings;
  shown: string;
  variable: 'HTTPS_PROXY' | 'HTTP_PROXY';
  /** The URL carries a user name (and password) for the proxy. */
  credentials: boolean;
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
 * Whether requests to `target` go through a proxy, and which: every request
 * of a run goes to the base URL's origin (origin rules), so this is decided
 * once. A loopback host never does: a proxy elsewhere cannot reach this
 * machine's loopback (nor should it get the sandbox's requests), as Go's
 * ProxyFromEnvironment decides. NO_PROXY is read as undici reads it (exact
 * host or a parent domain, `.example.com` and `*.example.com` alike, an
 * optional `:port`, `*` for all), and https falls back to HTTP_PROXY as in undici.
 */
export function proxyRoute(target: URL, settings: ProxySettings | undefined): ProxyRoute | undefined {
  if (!settings || isLoopback(target.hostname) || bypassed(target, settings.noProxy ?? '')) return undefined;
  const [variable, proxy] = target.protocol === 'https:' && settings.httpsProxy
    ? ['HTTPS_PROXY', settings.httpsProxy] as const
    : ['HTTP_PROXY', settings.httpProxy] as const;
  if (proxy === undefined) return undefined;
  const url = new URL(proxy);
  return { settings, shown: `${url.protocol}//${url.host}`, variable, credentials: url.username !== '' };
}

function bypassed(target: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const host = target.hostname.toLowerCase();
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  return noProxy.split(/[,\s]/).filter(Boolean).some((entry) => {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== port) return false;
    return host === name || host.endsWith(`.${name}`);
  });
}

/**
 * A dispatcher that sends through the proxies. Its modules are loaded one by
 * one, as src/api/transport/http.ts loads undici's: the index would put fetch,
 * WebSocket, the caches and the mocks (450 KB) in the bundle every run reads.
 */
export async function proxyDispatcher(settings: ProxySettings): Promise<Dispatcher> {
  const [{ default: EnvHttpProxyAgent }, { default: DispatcherClass }, { default: connect }] = await Promise.all([
    import('undici/lib/dispatcher/env-http-proxy-agent.js'), import('undici/lib/dispatcher/dispatcher.js'), import('undici/lib/api/api-connect.js'),
  ]);
  // The proxy agent opens its tunnels with Dispatcher.prototype.connect, which undici's index attaches, as this does.
  DispatcherClass.prototype.connect ??= connect;
  return new EnvHttpProxyAgent({ ...settings, noProxy: settings.noProxy ?? '', keepAliveTimeout: 10_000, connections: 32 });
}

/**
 * A dispatcher of its own for requests that are not to the platform (the
 * update check, `--notify` and `--ping`): through the proxy the environment
 * names for `target`, by the same rules as the API's (NO_PROXY, loopback
 * direct), else a plain Agent. The caller closes it. A proxy variable that is
 * not a URL throws, as it does for the API.
 */
export async function dispatcherFor(target: URL, env: Record<string, string | undefined>): Promise<Dispatcher> {
  const proxy = proxyRoute(target, proxyFromEnv(env));
  if (proxy) return proxyDispatcher(proxy.settings);
  const { default: Agent } = await import('undici/lib/dispatcher/agent.js');
  return new Agent();
}

import { describe, expect, it } from 'vitest';
import { proxyFromEnv, proxyRoute } from '../../../src/api/transport/proxy.js';

const route = (target: string, env: Record<string, string>) => {
  const found = proxyRoute(new URL(target), proxyFromEnv(env));
  return found && { shown: found.shown, variable: found.variable, credentials: found.credentials };
};
const PROXY = { HTTPS_PROXY: 'http://user:secret@proxy.corp:3128' };

describe('proxyRoute: which proxy the base URL goes through', () => {
  it('https through HTTPS_PROXY, named without its credentials; lowercase first; else HTTP_PROXY', () => {
    expect(route('https://api.example.com', PROXY)).toEqual({ shown: 'http://proxy.corp:3128', variable: 'HTTPS_PROXY', credentials: true });
    expect(route('https://api.example.com', { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2' })?.shown).toBe('http://low:1');
    expect(route('https://api.example.com', { HTTP_PROXY: 'http://plain:8080' })).toEqual({ shown: 'http://plain:8080', variable: 'HTTP_PROXY', credentials: false });
    expect(route('https://api.example.com', {})).toBeUndefined();
  });

  it('never for this machine: a proxy cannot reach its loopback', () => {
    for (const target of ['http://127.0.0.1:8787', 'http://127.4.5.6', 'http://localhost:1', 'http://[::1]:9']) {
      expect(route(target, { HTTP_PROXY: 'http://proxy:1', HTTPS_PROXY: 'http://proxy:1' }), target).toBeUndefined();
    }
    expect(route('https://127.example.com', PROXY)).toBeDefined();
  });

  it('NO_PROXY as undici reads it: host, parent domain (with or without . or *.), port, *', () => {
    const bypass = (noProxy: string, target = 'https://api.example.com') => route(target, { ...PROXY, NO_PROXY: noProxy }) === undefined;
    expect(bypass('api.example.com')).toBe(true);
    expect(bypass('example.com')).toBe(true);
    expect(bypass('.example.com')).toBe(true);
    expect(bypass('*.example.com')).toBe(true);
    expect(bypass('other.com, API.EXAMPLE.COM')).toBe(true);
    expect(bypass('*')).toBe(true);
    expect(bypass('api.example.com:443')).toBe(true);
    expect(bypass('api.example.com:8443')).toBe(false);
    expect(bypass('api.example.com:8443', 'https://api.example.com:8443')).toBe(true);
    expect(bypass('ample.com')).toBe(false);
    expect(bypass('')).toBe(false);
    expect(route('https://api.example.com', { ...PROXY, no_proxy: 'example.com', NO_PROXY: 'other.com' })).toBeUndefined();
  });
});

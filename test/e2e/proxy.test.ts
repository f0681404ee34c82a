/**
 * Behind a corporate network (issue 17): HTTPS goes through the proxy of
 * HTTPS_PROXY in a CONNECT tunnel (the proxy never sees the token, and the
 * name of the API is resolved by the proxy, as behind a real one), NO_PROXY
 * and loopback hosts go direct, a failing proxy is named, and a refused
 * certificate names its cause and the fix.
 */
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run, useSandboxProcess, tempDir } from './harness.js';

/** The API's name: it resolves nowhere but in the proxy, so a request that skipped the proxy cannot reach it. */
const API_HOST = 'api.members.test';
const PROXY_USER = 'corp-user';
const PROXY_PASSWORD = 'proxy-pass-SENTINEL';

let proxy: Server;
let proxyUrl: string;
let seen: Array<{ method: string; target: string; authorization: boolean; proxyAuthorization?: string }>;
let tls: Server;
let tlsPort: number;
let apiUrl: string;
let caFile: string;
let received: Array<string | undefined>;
/** What the HTTPS server was asked: `POST /ping/…`. */
let asked: string[];

const port = (server: Server) => (server.address() as AddressInfo).port;
const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const close = (server: Server | undefined) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/**
 * A forward proxy that opens CONNECT tunnels to API_HOST (mapped to this
 * machine) and requires Basic credentials; anything else is refused, as a
 * corporate proxy's allow-list would.
 */
function forwardProxy(): Server {
  const server = createHttpServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', authorization: req.headers.authorization !== undefined });
    res.writeHead(403).end();
  });
  server.on('connect', (req: IncomingMessage, socket, head) => {
    const proxyAuthorization = req.headers['proxy-authorization'];
    seen.push({ method: 'CONNECT', target: req.url ?? '', authorization: req.headers.authorization !== undefined, proxyAuthorization });
    const [host, targetPort] = (req.url ?? '').split(':');
    if (proxyAuthorization !== `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n');
      return;
    }
    if (host !== API_HOST) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect(Number(targetPort), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
  });
  return server;
}

const withCredentials = (url: string) => url.replace('//', `//${PROXY_USER}:${PROXY_PASSWORD}@`);

const sandbox = useSandboxProcess(['--students', '5']);

beforeAll(async () => {
  proxy = forwardProxy();
  await listen(proxy);
  proxyUrl = `http://127.0.0.1:${port(proxy)}`;

  // A self-signed HTTPS "API" named API_HOST that answers the products list.
  const dir = tempDir('members-tls-');
  caFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', caFile,
    '-days', '1', '-subj', `/CN=${API_HOST}`, '-addext', `subjectAltName=DNS:${API_HOST}`], { stdio: 'ignore' });
  tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(caFile) }, (req, res) => {
    received.push(req.headers.authorization);
    asked.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ id: 'p1', title: 'Yoga' }], links: {}, meta: { current_page: 1, last_page: 1, total: 1 } }));
  });
  await listen(tls);
  tlsPort = port(tls);
  apiUrl = `https://${API_HOST}:${tlsPort}`;
});

afterAll(async () => {
  await Promise.all([close(proxy), close(tls)]);
});

beforeEach(() => {
  seen = [];
  received = [];
  asked = [];
});

const apiEnv = (extra: Record<string, string | undefined>) => ({
  MEMBERS_BASE_URL: apiUrl, MEMBERS_TOKEN: 'tok_proxy_secret', NODE_EXTRA_CA_CERTS: caFile, MEMBERS_CONFIG_DIR: tempDir(), ...extra,
});

describe('HTTPS_PROXY: a CONNECT tunnel', () => {
  it('reaches the API through the proxy, which sees the host and its own credentials, never the token (lowercase variable too)', async () => {
    for (const name of ['HTTPS_PROXY', 'https_proxy']) {
      seen = [];
      received = [];
      const { code, stdout, stderr } = await run(['products', 'list', '-o', 'json'], { env: apiEnv({ [name]: withCredentials(proxyUrl) }) });
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toEqual([{ id: 'p1', title: 'Yoga' }]);
      expect(seen).toEqual([{
        method: 'CONNECT', target: `${API_HOST}:${tlsPort}`, authorization: false,
        proxyAuthorization: `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`,
      }]);
      // The token went to the API's origin, inside the tunnel.
      expect(received).toEqual(['Bearer tok_proxy_secret']);
    }
  });

  it('without HTTPS_PROXY, https falls back to HTTP_PROXY (as undici and npm read them)', async () => {
    const { code, stderr } = await run(['products', 'list'], { env: apiEnv({ HTTP_PROXY: withCredentials(proxyUrl) }) });
    expect(code, stderr).toBe(0);
    expect(seen.map((request) => request.method)).toEqual(['CONNECT']);
  });

  it('a proxy that wants credentials says how to give them, or that it refused them, and never shows the password', async () => {
    const { code, stderr } = await run(['products', 'list'], { env: apiEnv({ HTTPS_PROXY: proxyUrl }) });
    expect(code).toBe(6);
    expect(stderr).toContain(`the proxy ${proxyUrl} (HTTPS_PROXY) asks for credentials (407): put them in HTTPS_PROXY as http://USER:PASSWORD@host:port`);
    const wrong = await run(['products', 'list'], { env: apiEnv({ HTTPS_PROXY: proxyUrl.replace('//', '//corp-user:wrong-SENTINEL@') }) });
    expect(wrong.code).toBe(6);
    expect(wrong.stderr).toContain(`the proxy ${proxyUrl} (HTTPS_PROXY) refused the user name and password in HTTPS_PROXY (407)`);
    expect(wrong.stderr).not.toContain('wrong-SENTINEL');
    expect(received).toEqual([]);
  });

  it('a tunnel the proxy refuses names the proxy, the host and the status; the proxy password stays out of the message', async () => {
    const other = `https://elsewhere.members.test:${tlsPort}`;
    const { code, stderr } = await run(['products', 'list', '--retries', '0'], {
      env: apiEnv({ MEMBERS_BASE_URL: other, HTTPS_PROXY: withCredentials(proxyUrl) }),
    });
    expect(code).toBe(6);
    expect(stderr).toContain(`the proxy ${proxyUrl} (HTTPS_PROXY) refused the tunnel to elsewhere.members.test:${tlsPort} (403)`);
    expect(stderr).not.toContain(PROXY_PASSWORD);
  });

  it('a proxy that is down is named, not the API', async () => {
    // A port that was just free: nothing listens on it.
    const gone = createHttpServer();
    await listen(gone);
    const down = `http://127.0.0.1:${port(gone)}`;
    await close(gone);
    const { code, stderr } = await run(['products', 'list', '--retries', '0'], { env: apiEnv({ HTTPS_PROXY: down }) });
    expect(code).toBe(6);
    expect(stderr).toContain(`cannot reach ${apiUrl} through the proxy ${down} (HTTPS_PROXY) (ECONNREFUSED)`);
  });

  it('a proxy variable that is not a URL is a usage error, before any request', async () => {
    const { code, stderr } = await run(['products', 'list'], { env: { ...sandbox.env, HTTPS_PROXY: 'proxy corp:3128' } });
    expect(code).toBe(2);
    expect(stderr).toContain('HTTPS_PROXY is not a URL');
  });
});

describe('what goes direct', () => {
  it('NO_PROXY names hosts reached directly: here the API\'s name then resolves nowhere, and the proxy saw nothing', async () => {
    for (const noProxy of [API_HOST, '.members.test', `*.members.test,${API_HOST}:${tlsPort}`, '*']) {
      const { code, stderr } = await run(['products', 'list', '--retries', '0'], {
        env: apiEnv({ HTTPS_PROXY: withCredentials(proxyUrl), NO_PROXY: noProxy }),
      });
      expect(code, noProxy).toBe(6);
      expect(stderr).toMatch(new RegExp(`cannot reach ${apiUrl.replace(/\./g, '\\.')} \\((ENOTFOUND|EAI_AGAIN)\\)`));
    }
    // A NO_PROXY entry for another port does not match.
    const { code, stderr } = await run(['products', 'list'], { env: apiEnv({ HTTPS_PROXY: withCredentials(proxyUrl), NO_PROXY: `${API_HOST}:1` }) });
    expect(code, stderr).toBe(0);
    expect(seen.map((request) => request.target)).toEqual([`${API_HOST}:${tlsPort}`]);
  });

  it('plain HTTP to this machine (the sandbox) goes direct even with HTTP_PROXY: a proxy cannot reach this machine\'s loopback', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY']) {
      const { code, stderr } = await run(['products', 'list', '-o', 'json'], { env: { ...sandbox.env, [name]: withCredentials(proxyUrl) } });
      expect(code, stderr).toBe(0);
    }
    expect(seen).toEqual([]);
  });
});

describe('--notify and --ping for cron (issue 37)', () => {
  it('take the proxy route the API takes: through HTTPS_PROXY in a tunnel, the webhook\'s secret path never shown to the proxy', async () => {
    const { code, stderr } = await run(
      ['products', 'list', '-q', '--ping', `${apiUrl}/ping/uuid-1`, '--notify', `${apiUrl}/hook/T0-secret`, '--notify-always'],
      { env: apiEnv({ HTTPS_PROXY: withCredentials(proxyUrl) }) },
    );
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('warning');
    expect(asked.filter((line) => !line.startsWith('GET ')).sort()).toEqual(['POST /hook/T0-secret', 'POST /ping/uuid-1', 'POST /ping/uuid-1/start']);
    // A tunnel for each: the start, the API, the end's ping and notification; the proxy saw hosts, no path.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((request) => request.method === 'CONNECT' && request.target === `${API_HOST}:${tlsPort}`)).toBe(true);
  });

  it('NO_PROXY sends them direct (here the name then resolves nowhere): a warning, and the exit code stays the run\'s', async () => {
    const hooks = `https://hooks.members.test:${tlsPort}`;
    const { code, stderr } = await run(['products', 'list', '-q', '--ping', `${hooks}/ping/uuid-2`], {
      env: apiEnv({ HTTPS_PROXY: withCredentials(proxyUrl), NO_PROXY: 'hooks.members.test' }),
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(new RegExp(`warning: --ping to hooks\\.members\\.test:${tlsPort} failed \\((ENOTFOUND|EAI_AGAIN)\\); the exit code is the run's`));
    // Only the API went through the proxy.
    expect(seen.map((request) => request.target)).toEqual([`${API_HOST}:${tlsPort}`]);
    expect(asked.filter((line) => line.startsWith('POST '))).toEqual([]);
  });

  it('a proxy variable that is not a URL is a warning for them, not a second failure', async () => {
    const { code, stderr } = await run(['products', 'list', '--ping', `${apiUrl}/ping/uuid-3`], { env: apiEnv({ HTTPS_PROXY: 'proxy corp:3128' }) });
    expect(code).toBe(2);
    expect(stderr).toContain('HTTPS_PROXY is not a URL');
    expect(asked).toEqual([]);
  });
});

describe('a refused certificate', () => {
  it('names the cause (self-signed) and the fix (NODE_EXTRA_CA_CERTS, NODE_USE_SYSTEM_CA), exit 6, through the proxy too', async () => {
    const { code, stderr } = await run(['products', 'list'], { env: apiEnv({ NODE_EXTRA_CA_CERTS: undefined, HTTPS_PROXY: withCredentials(proxyUrl) }) });
    expect(code).toBe(6);
    expect(stderr).toContain(`the TLS certificate of ${apiUrl} was refused: it is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)`);
    expect(stderr).toContain('point NODE_EXTRA_CA_CERTS at its PEM file');
    expect(stderr).toContain('on Node 22.19, 24.6 and later, set NODE_USE_SYSTEM_CA=1');
    expect(received).toEqual([]);
  });
});

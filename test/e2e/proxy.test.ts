/**
 * Behind a corporate network (issue 17): HTTP_PROXY/HTTPS_PROXY/NO_PROXY are
 * honoured, HTTPS goes through a CONNECT tunnel (the proxy never sees the
 * token), and a refused certificate names its cause and the fix.
 */
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer, request, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run, startSandbox, tempDir, type SandboxProcess } from './harness.js';

let sandbox: SandboxProcess;
let proxy: Server;
let proxyUrl: string;
let seen: Array<{ method: string; target: string; authorization: boolean }>;
let tls: Server;
let tlsUrl: string;
let caFile: string;

const port = (server: Server) => (server.address() as AddressInfo).port;
const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const close = (server: Server | undefined) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/** A forward proxy: plain requests with an absolute URL, and CONNECT tunnels. */
function forwardProxy(): Server {
  const server = createHttpServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', authorization: req.headers.authorization !== undefined });
    const target = new URL(req.url ?? '');
    const upstream = request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, socket, head) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', authorization: req.headers.authorization !== undefined });
    const [host, targetPort] = (req.url ?? '').split(':');
    const upstream = connect(Number(targetPort), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
  });
  return server;
}

beforeAll(async () => {
  sandbox = await startSandbox(['--students', '5']);
  proxy = forwardProxy();
  await listen(proxy);
  proxyUrl = `http://127.0.0.1:${port(proxy)}`;

  // A self-signed HTTPS "API" that answers the products list.
  const dir = tempDir('members-tls-');
  caFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', caFile,
    '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(caFile) }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ id: 'p1', title: 'Yoga' }], links: {}, meta: { current_page: 1, last_page: 1, total: 1 } }));
  });
  await listen(tls);
  tlsUrl = `https://127.0.0.1:${port(tls)}`;
});

afterAll(async () => {
  await Promise.all([sandbox?.stop(), close(proxy), close(tls)]);
});

beforeEach(() => {
  seen = [];
});

describe('HTTP_PROXY, HTTPS_PROXY, NO_PROXY', () => {
  it('sends plain HTTP through the proxy too, in a tunnel: the token never reaches the proxy (lowercase variable too)', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      seen = [];
      const { code, stderr } = await run(['products', 'list', '-o', 'json'], { env: { ...sandbox.env, [name]: proxyUrl } });
      expect(code, stderr).toBe(0);
      expect(seen).toEqual([{ method: 'CONNECT', target: new URL(sandbox.url).host, authorization: false }]);
    }
  });

  it('NO_PROXY names hosts reached directly', async () => {
    const { code } = await run(['products', 'list'], { env: { ...sandbox.env, HTTP_PROXY: proxyUrl, NO_PROXY: 'localhost,127.0.0.1' } });
    expect(code).toBe(0);
    expect(seen).toEqual([]);
  });

  it('tunnels HTTPS with CONNECT: the proxy never sees the Authorization header', async () => {
    const env = { MEMBERS_BASE_URL: tlsUrl, MEMBERS_TOKEN: 'tok_proxy_secret', HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: caFile, MEMBERS_CONFIG_DIR: tempDir() };
    const { code, stdout, stderr } = await run(['products', 'list', '-o', 'json'], { env });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual([{ id: 'p1', title: 'Yoga' }]);
    expect(seen).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${port(tls)}`, authorization: false }]);
  });

  it('a proxy variable that is not a URL is a usage error, before any request', async () => {
    const { code, stderr } = await run(['products', 'list'], { env: { ...sandbox.env, HTTPS_PROXY: 'proxy corp:3128' } });
    expect(code).toBe(2);
    expect(stderr).toContain('HTTPS_PROXY is not a URL');
  });
});

describe('a refused certificate', () => {
  it('names the cause (self-signed) and the fix (NODE_EXTRA_CA_CERTS, NODE_USE_SYSTEM_CA), exit 6', async () => {
    const env = { MEMBERS_BASE_URL: tlsUrl, MEMBERS_TOKEN: 'tok_x_12345', MEMBERS_CONFIG_DIR: tempDir() };
    const { code, stderr } = await run(['products', 'list'], { env });
    expect(code).toBe(6);
    expect(stderr).toContain(`the TLS certificate of ${tlsUrl} was refused: it is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)`);
    expect(stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(stderr).toContain('NODE_USE_SYSTEM_CA=1');
  });
});

/**
 * Small misbehaving servers for the fault tests, on 127.0.0.1 and an
 * ephemeral port, each recording what reached it.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface TestServer {
  url: string;
  /** Every request that reached the server, in order. */
  received: Received[];
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse, server: TestServer) => void | Promise<void>;

export async function httpServer(handler: Handler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    self.received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    void Promise.resolve(handler(request, response, self)).catch((error: unknown) => {
      response.destroy(error as Error);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const self: TestServer = {
    url: `http://127.0.0.1:${port}`,
    received: [],
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
  return self;
}

/** Accepts connections and never answers; counts them. */
export async function silentServer(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** A student as api-spec §2 describes it. */
export function student(n: number): Record<string, unknown> {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    first_name: 'Ana',
    last_name: `Lima ${n}`,
    full_name: `Ana Lima ${n}`,
    email: `ana.lima.${n}@example.com`,
    photo_url: null,
    phone: '+55 11 91234-5678',
    genre: null,
    birth: '1990-01-01',
    document: `${n}`,
    reference_id: null,
    created_at: '2024-03-05T14:22:09.000000Z',
    updated_at: '2024-03-05T14:22:09.000000Z',
  };
}

/** Student n's subscription to product k, with its product, as the student endpoints send it. */
export function subscription(n: number, k: number): Record<string, unknown> {
  const productId = `00000000-0000-4000-9000-${String(k).padStart(12, '0')}`;
  return {
    id: n * 10 + k, active: 1, status: 'active', product_id: productId, payment_last_date: '2024-03-05', accession_date: '2024-03-05',
    expiration_date: '2026-03-05', cancel_date: null,
    product: { id: productId, title: `Curso ${k}`, description: 'Um curso', created_at: '2024-01-01T00:00:00.000000Z', updated_at: '2024-01-01T00:00:00.000000Z' },
    created_at: '2024-03-05T14:22:09.000000Z', updated_at: '2024-03-05T14:22:09.000000Z',
  };
}

/** One page of a Laravel paginator over `total` generated students (with `subscriptions` to products 1…n each, when asked). */
export function studentPage(base: string, page: number, perPage: number, total: number, options: { meta?: boolean; subscriptions?: number } = {}): unknown {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const first = (page - 1) * perPage;
  const held = options.subscriptions;
  const data = Array.from({ length: Math.max(0, Math.min(perPage, total - first)) }, (_, i) => {
    const n = first + i + 1;
    return held === undefined ? student(n) : { ...student(n), subscriptions: Array.from({ length: held }, (_, k) => subscription(n, k + 1)) };
  });
  const link = (p: number) => `${base}/api/v1/students?page=${p}&per_page=${perPage}`;
  return {
    data,
    links: { first: link(1), last: link(lastPage), prev: page > 1 ? link(page - 1) : null, next: page < lastPage ? link(page + 1) : null },
    ...(options.meta === false ? {} : {
      meta: { current_page: page, from: first + 1, last_page: lastPage, path: `${base}/api/v1/students`, per_page: perPage, to: first + data.length, total },
    }),
  };
}

export function queryOf(request: IncomingMessage): URLSearchParams {
  return new URL(request.url ?? '/', 'http://x').searchParams;
}

/** Environment for the binary: a fresh config dir, a base URL and a token. */
export function cliEnv(configDir: string, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { MEMBERS_CONFIG_DIR: configDir, MEMBERS_BASE_URL: baseUrl, MEMBERS_TOKEN: 'tok_faults_0123456789', ...extra };
}

/** A stack frame line, as V8 prints them. */
export const STACK_FRAME = /^ {4}at /m;

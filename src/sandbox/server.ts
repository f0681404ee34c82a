import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkTimeZone, dialectOf, type Dialect, type Flavor, type PageSize } from './dialect.js';
import { Faults, PASS } from './faults.js';
import { HttpError, type Reply, type RequestContext } from './http.js';
import { escapeJson, serialize } from './laravel.js';
import { readStateFile, StateWriter } from './persist.js';
import { buildRoutes, Router, type RouteMatch, type SandboxControl } from './routes.js';
import type { RateLimit } from './throttle.js';
import { generateState } from './seed.js';
import { RequestStats } from './stats.js';
import { Script } from './script.js';
import { SandboxStore } from './store.js';

export { SandboxStore } from './store.js';
export { computeEngagedReport, type ReportRow } from './report.js';
export { DEFAULT_DIALECT, laravelDialect, type Dialect, type Flavor, type PageSize } from './dialect.js';
export type { RateLimit } from './throttle.js';
export type { CourseRecord, ProductRecord, ProgressRecord, StudentRecord, SubscriptionRecord } from './types.js';

export interface SandboxOptions {
  host?: string;
  /** 0 = an ephemeral port. */
  port?: number;
  /** Data and tokens are deterministic from it. Default 1. */
  seed?: number;
  /** Default 200. */
  students?: number;
  /** Added to every response. */
  latencyMs?: number;
  /** Fraction (0..1) of requests answered 500 or 503. */
  failRate?: number;
  /** Requests per second (a number), or per minute (Laravel's `throttle:60,1`); beyond it 429 with Retry-After. */
  rateLimit?: number | RateLimit;
  /** `laravel`: answer in the shapes of a Laravel 8 application (see dialect.ts). Default `default`. */
  flavor?: Flavor;
  /** Single knobs over the flavor's dialect. */
  dialect?: Partial<Dialect>;
  /** Start in maintenance mode (`php artisan down`): 503 to every API request. */
  maintenance?: boolean;
  /** Persist the state here as JSON: loaded if it exists (its seed and tokens win), else seeded and written. */
  dataFile?: string;
  /** For tests only (not a CLI flag): these tokens instead of the seeded or saved ones. */
  apiToken?: string;
  developerToken?: string;
  platformToken?: string;
}

export interface Sandbox {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  apiToken: string;
  developerToken: string;
  platformToken: string;
  /** The live state, for tests to inspect. */
  store: SandboxStore;
  /** Stops listening, closes keep-alive sockets and flushes the data file. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const settings = checkOptions(options);
  const saved = settings.dataFile === undefined ? undefined : await readStateFile(settings.dataFile);
  const state = saved ?? generateState(settings.seed, settings.students);
  const { apiToken: api, developerToken: developer, platformToken: platform } = options;
  const store = new SandboxStore({
    ...state,
    tokens: { api: api ?? state.tokens.api, developer: developer ?? state.tokens.developer, platform: platform ?? state.tokens.platform },
  });
  const writer = settings.dataFile === undefined ? undefined : new StateWriter(settings.dataFile, store);
  if (writer) {
    store.onChange(() => writer.schedule());
    if (!saved) {
      writer.schedule();
      await writer.flush();
    }
  }
  const control: SandboxControl = { stats: new RequestStats(), maintenance: { down: settings.maintenance }, script: new Script() };
  const router = new Router(buildRoutes(control), settings.dialect.encodedSlash === 'route-miss');
  const app = new App(store, router, control, new Faults({ ...settings, seed: store.seed }), settings.dialect, writer);
  const server = createServer((request, response) => void app.handle(request, response));
  await listen(server, settings.host, settings.port);
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${host}:${port}`,
    apiToken: store.tokens.api,
    developerToken: store.tokens.developer,
    platformToken: store.tokens.platform,
    store,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await writer?.flush();
    },
  };
}

function checkOptions(options: SandboxOptions) {
  const settings = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    seed: options.seed ?? 1,
    students: options.students ?? 200,
    latencyMs: options.latencyMs ?? 0,
    failRate: options.failRate ?? 0,
    rateLimit: typeof options.rateLimit === 'number' ? { limit: options.rateLimit, per: 'second' as const } : options.rateLimit,
    dataFile: options.dataFile,
    dialect: dialectOf(options.flavor ?? 'default', options.dialect),
    maintenance: options.maintenance ?? false,
  };
  checkTimeZone(settings.dialect.serverTz);
  const problems = [
    !Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535 ? 'port must be an integer from 0 to 65535' : '',
    !Number.isSafeInteger(settings.seed) ? 'seed must be an integer' : '',
    !Number.isInteger(settings.students) || settings.students < 0 ? 'students must be a non-negative integer' : '',
    !(settings.latencyMs >= 0) ? 'latencyMs must be ≥ 0' : '',
    !(settings.failRate >= 0 && settings.failRate <= 1) ? 'failRate must be between 0 and 1' : '',
    settings.rateLimit !== undefined && !(settings.rateLimit.limit > 0) ? 'rateLimit must be > 0' : '',
    pageSizeProblem(settings.dialect.pageSize),
  ].filter(Boolean);
  if (problems.length > 0) throw new RangeError(`invalid sandbox options: ${problems.join('; ')}`);
  return settings;
}

function pageSizeProblem(rule: PageSize): string {
  const size = rule.kind === 'ignored' ? rule.size : rule.kind === 'capped' ? rule.max : 1;
  return Number.isSafeInteger(size) && size >= 1 ? '' : `dialect.pageSize's ${rule.kind === 'ignored' ? 'size' : 'max'} must be an integer ≥ 1`;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The request pipeline: route, count, maintenance, faults, authentication,
 * handler, the dialect's serialisation, saving, latency.
 */
class App {
  constructor(
    private readonly store: SandboxStore,
    private readonly router: Router,
    private readonly control: SandboxControl,
    private readonly faults: Faults,
    private readonly dialect: Dialect,
    private readonly writer: StateWriter | undefined,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // From its first byte: a killed client's last request is under way (or its connection open) until it is answered.
    const api = !(request.url ?? '').startsWith('/__sandbox/');
    if (!api) return this.respond(request, response);
    this.control.stats.began();
    if (request.headers['user-agent']?.startsWith('members-cli/')) this.control.stats.client(request.socket);
    try {
      await this.respond(request, response);
    } finally {
      this.control.stats.ended();
    }
  }

  private async respond(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('X-Request-Id', randomUUID());
    let reply: Reply;
    // Sandbox-only routes are neither counted nor subject to faults.
    let exempt = true;
    try {
      const body = await readBody(request);
      const url = request.url ?? '/';
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      const method = request.method ?? 'GET';
      const match = this.router.match(method, path);
      exempt = match.kind === 'found' && match.route.access === 'introspection';
      if (!exempt) this.control.stats.count(`${method} ${match.kind === 'found' ? match.route.template : '(unmatched)'}`);
      if (!exempt && this.control.maintenance.down) {
        // PreventRequestsDuringMaintenance answers before routing, throttling or the application.
        reply = { status: 503, body: { message: 'Service Unavailable' } };
      } else {
        reply = await this.answer(request, match, exempt, { method, path, query: url.slice(queryAt + 1), queryAt, body });
      }
    } catch (error) {
      reply = error instanceof HttpError ? error.reply : { status: 500, body: { message: 'Server Error', error: String(error) } };
    }
    if (!exempt) {
      this.control.stats.answered(reply.status);
      reply = serialize(reply, this.dialect);
      await this.faults.delay();
    }
    send(response, reply, !exempt && this.dialect.escapedJson);
  }

  /** Faults, then the handler; a change is saved to the data file before it is acknowledged. */
  private async answer(
    request: IncomingMessage, match: RouteMatch, exempt: boolean,
    raw: { method: string; path: string; query: string; queryAt: number; body: string },
  ): Promise<Reply> {
    const scripted = exempt || match.kind !== 'found' ? undefined : this.control.script.take(raw.method, match.route.template);
    const hold = () => (scripted ? this.control.script.hold(scripted) : undefined);
    if (!scripted?.afterChange) await hold();
    const refusal = scripted?.status !== undefined ? { status: scripted.status, body: scripted.body ?? { message: `Scripted ${scripted.status}.` } } : undefined;
    if (refusal && !scripted?.afterChange) return refusal;
    const fault = exempt ? PASS : this.faults.decide(raw.method);
    if (fault.kind === 'throttle' || (fault.kind === 'fail' && !fault.afterChange)) return Faults.reply(fault);
    const origin = `http://${request.headers.host ?? hostOf(request)}`;
    const query = new URLSearchParams(raw.queryAt === -1 ? '' : raw.query);
    const before = this.store.version;
    let reply = this.dispatch(match, {
      method: raw.method, origin, path: raw.path, query, headers: request.headers, body: raw.body, store: this.store, dialect: this.dialect,
    });
    if (this.writer && this.store.version !== before) {
      try {
        await this.writer.flush();
      } catch (error) {
        // The change is in memory only: a kill now would lose it, so it is not acknowledged.
        return { status: 500, body: { message: 'Server Error', error: `could not save the data file: ${String(error)}` } };
      }
    }
    if (scripted?.afterChange) await hold();
    if (fault.kind === 'fail') reply = Faults.reply(fault);
    if (refusal) reply = refusal;
    return fault.headers ? { ...reply, headers: { ...reply.headers, ...fault.headers } } : reply;
  }

  private dispatch(match: RouteMatch, request: Omit<RequestContext, 'param'>): Reply {
    if (match.kind === 'bad-path') return { status: 400, body: { message: 'The URL path is not validly percent-encoded.' } };
    if (match.kind === 'not-found') {
      // Laravel 8's router throws a NotFoundHttpException without a message.
      const message = this.dialect.errors === 'laravel' ? '' : `The route ${request.path.slice(1)} could not be found.`;
      return { status: 404, body: { message } };
    }
    if (match.kind === 'method-not-allowed') {
      const allowed = match.allowed.includes('GET') ? [...match.allowed, 'HEAD'] : match.allowed;
      return {
        status: 405,
        body: { message: `The ${request.method} method is not supported for route ${request.path.slice(1)}. Supported methods: ${allowed.join(', ')}.` },
        headers: { Allow: allowed.join(', ') },
      };
    }
    const { route, params } = match;
    if (route.access !== 'report' && request.headers.authorization !== `Bearer ${this.store.tokens.api}`) {
      return { status: 401, body: { message: 'Unauthenticated.' } };
    }
    const ctx: RequestContext = {
      ...request,
      param(name) {
        const value = params.get(name);
        if (value === undefined) throw new Error(`route ${route.template} has no parameter ${name}`);
        return value;
      },
    };
    try {
      return route.handle(ctx);
    } catch (error) {
      if (error instanceof HttpError) return error.reply;
      throw error;
    }
  }
}

function hostOf(request: IncomingMessage): string {
  const { address, port, family } = request.socket.address() as AddressInfo;
  return family === 'IPv6' ? `[${address}]:${port}` : `${address}:${port}`;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new HttpError(413, { message: 'The request body is too large.' }));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
    // A client gone before the end of its body (killed): nothing to answer, and the request must not stay pending.
    request.on('close', () => {
      if (!request.complete) reject(new HttpError(400, { message: 'The request body was cut short.' }));
    });
  });
}

function send(response: ServerResponse, reply: Reply, escaped: boolean): void {
  if (reply.body === undefined) {
    response.writeHead(reply.status, reply.headers);
    response.end();
    return;
  }
  const text = escaped ? escapeJson(JSON.stringify(reply.body)) : JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    ...reply.headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

import { UsageError } from '../../lib/errors.js';
import { parseInteger } from '../../lib/values.js';
import type { Session } from '../../session/session.js';
import { checkTimeZone, type Dialect, type Flavor } from '../../sandbox/dialect.js';
import type { RateLimit, SandboxOptions } from '../../sandbox/server.js';

export interface SandboxFlags {
  host: string;
  port: string;
  seed: string;
  students: string;
  latency?: string;
  failRate?: string;
  rateLimit?: string;
  flavor: Flavor;
  paginator?: Dialect['paginator'];
  perPageIgnored?: string;
  perPageMax?: string;
  serverTz?: string;
  maintenance?: boolean;
  data?: string;
  login?: boolean;
}

/** Sandbox latency accepts milliseconds too (`20ms`), unlike request DURATIONs. */
function parseLatency(input: string): number {
  const match = /^(\d+)(ms|s|m)?$/.exec(input.trim());
  if (!match) throw new UsageError(`invalid --latency ${JSON.stringify(input)}: use e.g. 20ms, 1s`);
  const unit = { ms: 1, s: 1000, m: 60_000 }[match[2] ?? 'ms'] as number;
  return Number(match[1]) * unit;
}

function parseFraction(input: string): number {
  const value = Number(input);
  if (!/^\d*\.?\d+$/.test(input) || value < 0 || value > 1) {
    throw new UsageError(`invalid --fail-rate ${JSON.stringify(input)}: expected a fraction between 0 and 1`);
  }
  return value;
}

/** `50`, `50/s` (per second) or `60/min` (per minute, Laravel's `throttle:60,1`). */
function parseRate(input: string): RateLimit {
  const match = /^(\d+)(?:\/(s|sec|second|m|min|minute))?$/.exec(input.trim());
  const limit = match ? Number(match[1]) : 0;
  if (!match || !Number.isSafeInteger(limit) || limit < 1) {
    throw new UsageError(`invalid --rate-limit ${JSON.stringify(input)}: use N or N/s (per second), or N/min (per minute), e.g. 50 or 60/min`);
  }
  return { limit, per: match[2]?.startsWith('m') ? 'minute' : 'second' };
}

/** The flavor's dialect, with the knobs given on the command line over it (commander checked the choices). */
function dialectFlags(flags: SandboxFlags): Pick<SandboxOptions, 'flavor' | 'dialect'> {
  const dialect: Partial<Dialect> = {};
  if (flags.paginator !== undefined) dialect.paginator = flags.paginator;
  // commander refuses the two together.
  if (flags.perPageIgnored !== undefined) dialect.pageSize = { kind: 'ignored', size: parseInteger(flags.perPageIgnored, '--per-page-ignored', { min: 1 }) };
  if (flags.perPageMax !== undefined) dialect.pageSize = { kind: 'capped', max: parseInteger(flags.perPageMax, '--per-page-max', { min: 1 }) };
  if (flags.serverTz !== undefined) {
    try {
      dialect.serverTz = checkTimeZone(flags.serverTz);
    } catch (error) {
      throw new UsageError(`invalid --server-tz: ${(error as Error).message}`);
    }
  }
  return { flavor: flags.flavor, dialect };
}

export async function runSandbox(session: Session, flags: SandboxFlags): Promise<void> {
  const options: SandboxOptions = {
    ...dialectFlags(flags),
    maintenance: flags.maintenance === true,
    host: flags.host,
    port: parseInteger(flags.port, '--port', { min: 0, max: 65_535 }),
    seed: parseInteger(flags.seed, '--seed', { min: 0 }),
    students: parseInteger(flags.students, '--students', { min: 1, max: 2_000_000 }),
    latencyMs: flags.latency === undefined ? 0 : parseLatency(flags.latency),
    failRate: flags.failRate === undefined ? 0 : parseFraction(flags.failRate),
    rateLimit: flags.rateLimit === undefined ? undefined : parseRate(flags.rateLimit),
    dataFile: flags.data,
  };
  const { startSandbox } = await import('../../sandbox/server.js');
  const sandbox = await startSandbox(options);

  if (flags.login) {
    const store = await session.store('write');
    store.save('sandbox', {
      base_url: sandbox.url, token: sandbox.apiToken,
      developer_token: sandbox.developerToken, platform_token: sandbox.platformToken,
    });
    store.setActive('sandbox');
  }

  const summary = {
    base_url: sandbox.url, api_token: sandbox.apiToken,
    developer_token: sandbox.developerToken, platform_token: sandbox.platformToken,
  };
  // The one place that prints tokens, by design: a throw-away local server's.
  const { stdout } = session.io;
  if (session.globals.output === 'json' || session.globals.output === 'ndjson') {
    stdout.write(`${JSON.stringify(summary)}\n`);
  } else {
    stdout.write(`base url: ${summary.base_url}\napi token: ${summary.api_token}\n`
      + `developer token: ${summary.developer_token}\nplatform token: ${summary.platform_token}\n`);
  }
  const messages = await session.messages();
  if (flags.login) messages.notice('✓ Profile "sandbox" stored and active');
  messages.notice('Sandbox running; press Ctrl-C to stop.');

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    const removeInterrupt = session.io.onInterrupt(stop);
    session.io.onTerminate?.(() => {
      removeInterrupt();
      stop();
    });
  });
  await sandbox.close();
  messages.notice('Sandbox stopped.');
}

import { UsageError } from '../../errors.js';
import { parseInteger } from '../../values.js';
import type { Session } from '../../session.js';

export interface SandboxFlags {
  host: string;
  port: string;
  seed: string;
  students: string;
  latency?: string;
  failRate?: string;
  rateLimit?: string;
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

export async function runSandbox(session: Session, flags: SandboxFlags): Promise<void> {
  const options = {
    host: flags.host,
    port: parseInteger(flags.port, '--port', { min: 0, max: 65_535 }),
    seed: parseInteger(flags.seed, '--seed', { min: 0 }),
    students: parseInteger(flags.students, '--students', { min: 1, max: 2_000_000 }),
    latencyMs: flags.latency === undefined ? 0 : parseLatency(flags.latency),
    failRate: flags.failRate === undefined ? 0 : parseFraction(flags.failRate),
    rateLimit: flags.rateLimit === undefined ? undefined : parseInteger(flags.rateLimit, '--rate-limit', { min: 1 }),
    dataFile: flags.data,
  };
  const { startSandbox } = await import('../../sandbox/server.js');
  const sandbox = await startSandbox(options);

  if (flags.login) {
    const store = await session.store();
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

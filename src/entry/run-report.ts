/**
 * `--notify URL` and `--ping URL` (issue 37, item 5): the run's summary
 * (run-summary.ts) told to a person, and a monitor told that the job ran.
 *
 * - notify: POSTed when a person is needed (exit 2, or 7 and above but 130
 *   and 141), always with --notify-always; as Slack, Google Chat and Teams
 *   incoming webhooks read it (`{"text": …}`), chosen by host, else the
 *   summary itself as JSON.
 * - ping, healthchecks style: `URL/start` when the command starts, `URL` when
 *   it ends with exit 0, `URL/fail` otherwise, the exit code as the body.
 *
 * Either failing is a warning on stderr naming the host only (a webhook's
 * path is its secret) and never changes the exit code. Both take the proxy
 * route the API and the update check take (HTTPS_PROXY, NO_PROXY; contract
 * §7.2): a cron server behind an egress proxy reaches its webhook too.
 */
import type { Dispatcher } from 'undici';
import type { Io } from '../lib/io.js';
import { UsageError } from '../lib/errors.js';
import type { RunSummary } from './run-summary.js';

const TIMEOUT_MS = 10_000;

export interface ReportTargets {
  notify?: string;
  notifyAlways?: boolean;
  ping?: string;
}

/** Where a URL points, without its path, query or credentials: what a message may name. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}

/** The webhook body for the host: chat services take a text, others the summary. */
export function notifyBody(url: string, summary: RunSummary): unknown {
  const host = hostOf(url);
  const chat = host === 'hooks.slack.com' || host === 'chat.googleapis.com' || host.endsWith('.webhook.office.com') || host === 'outlook.office.com';
  return chat ? { text: summaryText(summary) } : summary;
}

/** `members each on profile default: exit 7, 2 of 30 rows failed (line 4: …); run RUN` */
export function summaryText(summary: RunSummary): string {
  const counts = summary.counts ? Object.entries(summary.counts).filter(([, n]) => n > 0).map(([result, n]) => `${n} ${result}`).join(', ') : '';
  const first = summary.failures[0];
  return [
    `members ${summary.command}${summary.profile ? ` on profile ${summary.profile}` : ''}: exit ${summary.exit_code}${summary.person_needed ? ' (a person is needed)' : ''}`,
    counts && `rows: ${counts}`,
    first && `first failure${first.line === undefined ? '' : ` (line ${first.line})`}: ${first.message}`,
    summary.run_id && `run ${summary.run_id} (members history --run ${summary.run_id})`,
  ].filter(Boolean).join('\n');
}

type ReportIo = Pick<Io, 'stderr' | 'env'>;

async function send(io: ReportIo, what: string, url: string, init: { method: string; body?: string; contentType?: string }, dispatcher?: Dispatcher): Promise<void> {
  // undici's request, as the API client sends: its fetch would bundle undici's whole web stack (fetch, WebSocket) into every run.
  const [{ default: request }, { dispatcherFor }] = await Promise.all([import('undici/lib/api/api-request.js'), import('../api/transport/proxy.js')]);
  let own: Dispatcher | undefined;
  try {
    const target = new URL(url);
    own = dispatcher ? undefined : await dispatcherFor(target, io.env);
    const response = await request.call(dispatcher ?? own!, {
      origin: target.origin, path: target.pathname + target.search, method: init.method as Dispatcher.HttpMethod, body: init.body,
      headers: init.contentType ? { 'content-type': init.contentType } : {}, signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body.dump();
    if (response.statusCode >= 300) io.stderr.write(`warning: ${what} to ${hostOf(url)} was answered ${response.statusCode}; the exit code is the run's\n`);
  } catch (error) {
    const cause = error instanceof UsageError ? error.message
      : (error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code ?? (error as Error).name;
    io.stderr.write(`warning: ${what} to ${hostOf(url)} failed (${cause}); the exit code is the run's\n`);
  } finally {
    await own?.close().catch(() => undefined);
  }
}

const pingUrl = (url: string, suffix: string) => `${url.replace(/\/+$/, '')}${suffix}`;

/** `URL/start`, when the command starts. */
export function pingStart(io: ReportIo, targets: ReportTargets, dispatcher?: Dispatcher): Promise<void> {
  return targets.ping ? send(io, '--ping', pingUrl(targets.ping, '/start'), { method: 'POST' }, dispatcher) : Promise.resolve();
}

/** The end: the ping (`URL` or `URL/fail`) and, when a person is needed (or always), the notification. */
export async function reportEnd(io: ReportIo, targets: ReportTargets, summary: RunSummary, dispatcher?: Dispatcher): Promise<void> {
  const sends: Array<Promise<void>> = [];
  if (targets.ping) {
    sends.push(send(io, '--ping', pingUrl(targets.ping, summary.exit_code === 0 ? '' : '/fail'), { method: 'POST', body: String(summary.exit_code), contentType: 'text/plain' }, dispatcher));
  }
  if (targets.notify && (summary.person_needed || targets.notifyAlways)) {
    sends.push(send(io, '--notify', targets.notify, { method: 'POST', body: JSON.stringify(notifyBody(targets.notify, summary)), contentType: 'application/json' }, dispatcher));
  }
  await Promise.all(sends);
}

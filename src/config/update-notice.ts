/**
 * The update notice (contract §25.2, MEMBERS_NO_UPDATE_NOTIFIER), as gh and
 * npm have one: on a terminal, at most once a day, one line on stderr when the
 * registry holds a newer members-cli. It never delays a run: a run reads what
 * an earlier run's check wrote in the cache directory (STATE_FILE) and, once a
 * day, starts the next check in a process of its own that outlives it
 * (Io.startUpdateCheck; checkForUpdate below is what that process does), as
 * update-notifier does.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inCi } from '../lib/ci.js';
import { cacheDir } from './paths.js';

/** package.json's name (a test keeps them equal): what the registry is asked about and what the notice installs. */
export const PACKAGE_NAME = 'members-cli';
export const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';
export const STATE_FILE = 'update-check.json';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A version as semver writes it (a leading v allowed); nothing else is ever printed from the registry's answer. */
const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

/** What the last check left in STATE_FILE. */
export interface UpdateState {
  /** When the last check ended, answered or not: the next one is due a day later. */
  checked_at: string;
  /** The registry's latest version at the last check that got an answer. */
  latest?: string;
  /** When the notice was last shown: not again within a day. */
  notified_at?: string;
}

// Read by hand, not by a zod schema: this runs after every command at a terminal, most of which never load zod.
function stateOf(json: unknown): UpdateState | undefined {
  const { checked_at, latest, notified_at } = (json ?? {}) as Record<string, unknown>;
  const isTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));
  if (!isTime(checked_at) || !(notified_at === undefined || isTime(notified_at)) || !(latest === undefined || isVersion(latest))) return undefined;
  return { checked_at, latest, notified_at };
}

const isVersion = (value: unknown): value is string => typeof value === 'string' && VERSION.test(value);

/** Why this run shows no notice and starts no check, or undefined when it may. */
export function updateNoticeOff(env: Record<string, string | undefined>, stderrIsTTY: boolean, quiet: boolean): string | undefined {
  if ((env.MEMBERS_NO_UPDATE_NOTIFIER ?? '') !== '') return 'MEMBERS_NO_UPDATE_NOTIFIER is set';
  if (inCi(env)) return 'CI is set';
  if (!stderrIsTTY) return 'stderr is not a terminal';
  if (quiet) return '--quiet';
  return undefined;
}

/**
 * The package's document in the registry: MEMBERS_UPDATE_REGISTRY, else the
 * one npm is told to use through the environment (npm_config_registry), else
 * npm's. Undefined when that is no http(s) URL.
 */
export function packageDocumentUrl(env: Record<string, string | undefined>): URL | undefined {
  const registry = env.MEMBERS_UPDATE_REGISTRY || env.npm_config_registry || env.NPM_CONFIG_REGISTRY || DEFAULT_REGISTRY;
  let base: URL;
  try {
    base = new URL(registry.endsWith('/') ? registry : `${registry}/`);
  } catch {
    return undefined;
  }
  return base.protocol === 'https:' || base.protocol === 'http:' ? new URL(PACKAGE_NAME, base) : undefined;
}

/** The latest version a registry document names (its dist-tags), or undefined. */
export function latestOf(document: unknown): string | undefined {
  const latest = (document as { 'dist-tags'?: { latest?: unknown } } | null)?.['dist-tags']?.latest;
  return isVersion(latest) ? latest : undefined;
}

/**
 * What the state of the last check means for this run: the notice to show,
 * if its latest version is newer than this one and none was shown within a
 * day; and whether the next check is due (a day after the last, or at once
 * when the clock went back).
 */
export function planUpdateNotice(state: UpdateState | undefined, current: string, now: Date): { notice?: string; check: boolean } {
  const olderThanADay = (iso: string | undefined) => {
    if (iso === undefined) return true;
    const age = now.getTime() - Date.parse(iso);
    return age >= DAY_MS || age < 0;
  };
  if (state === undefined) return { check: true };
  const latest = state.latest ?? '';
  const notice = isNewer(latest, current) && olderThanADay(state.notified_at)
    ? `A new release of members is available: ${current} → ${latest.replace(/^v/, '')} (npm install -g ${PACKAGE_NAME})`
    : undefined;
  return { notice, check: olderThanADay(state.checked_at) };
}

/** Whether version `a` comes after `b` in semver's order (semver.org §11); false when either is no version. */
export function isNewer(a: string, b: string): boolean {
  const [x, y] = [VERSION.exec(a), VERSION.exec(b)];
  if (!x || !y) return false;
  for (let i = 1; i <= 3; i++) {
    if (Number(x[i]) !== Number(y[i])) return Number(x[i]) > Number(y[i]);
  }
  // 1.0.0 comes after its pre-releases (1.0.0-rc.1), which compare identifier by identifier.
  if (x[4] === undefined) return y[4] !== undefined;
  if (y[4] === undefined) return false;
  return comparePrerelease(x[4].split('.'), y[4].split('.')) > 0;
}

function comparePrerelease(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [p, q] = [a[i]!, b[i]!];
    if (p === q) continue;
    const [pNumeric, qNumeric] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    // Numbers compare as numbers and come before words; words compare in ASCII order.
    if (pNumeric && qNumeric) return Number(p) - Number(q);
    if (pNumeric !== qNumeric) return pNumeric ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return a.length - b.length;
}

export function updateStatePath(dir: string): string {
  return path.join(dir, STATE_FILE);
}

/** The last check's state; undefined when there is none (or it is not as this program writes it: a new check replaces it). */
export function readUpdateState(dir: string): UpdateState | undefined {
  try {
    return stateOf(JSON.parse(readFileSync(updateStatePath(dir), 'utf8')));
  } catch {
    return undefined;
  }
}

/** Replaces the state in one step (a run and a check may write it at once). */
export async function writeUpdateState(dir: string, state: UpdateState): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Loaded only to write, once a day at most.
  const { writeFileAtomically } = await import('../lib/atomic-file.js');
  await writeFileAtomically(updateStatePath(dir), `${JSON.stringify(state)}\n`);
}

export interface UpdateNoticeIo {
  env: Record<string, string | undefined>;
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Starts checkForUpdate in a process of its own, which this run does not wait for. */
  startUpdateCheck(): void | Promise<void>;
}

/**
 * After a run: the notice an earlier check found, then the next check when
 * one is due. Returns what it did, for MEMBERS_DEBUG. A cache that cannot be
 * read or written only costs the notice.
 */
export async function noticeUpdate(io: UpdateNoticeIo, options: { current: string; quiet: boolean; now?: Date }): Promise<string> {
  const off = updateNoticeOff(io.env, io.stderr.isTTY === true, options.quiet);
  const dir = cacheDir(io.env);
  if (off !== undefined || dir === undefined) return `off (${off ?? 'no cache directory'})`;
  const url = packageDocumentUrl(io.env);
  if (url === undefined) return 'off (the registry is no http(s) URL)';
  const now = options.now ?? new Date();
  const state = readUpdateState(dir);
  const plan = planUpdateNotice(state, options.current, now);
  if (plan.notice !== undefined) {
    io.stderr.write(`${plan.notice}\n`);
    // Before the check starts: the check writes the state again, keeping this.
    await writeUpdateState(dir, { ...state!, notified_at: now.toISOString() }).catch(() => undefined);
  }
  if (plan.check) await io.startUpdateCheck();
  const told = plan.notice === undefined ? 'nothing to tell' : 'told';
  return plan.check ? `${told}; checking ${url.href} in the background` : `${told}; last checked ${state!.checked_at}`;
}

/**
 * The check itself, in its own process: asks the registry for the latest
 * version (`fetchLatest`, which has its own deadline) and records it with
 * the time, answered or not, so that a registry that fails is asked again
 * only the next day.
 */
export async function checkForUpdate(env: Record<string, string | undefined>, fetchLatest: (url: URL) => Promise<string | undefined>): Promise<void> {
  const dir = cacheDir(env);
  const url = packageDocumentUrl(env);
  if (dir === undefined || url === undefined) return;
  const latest = await fetchLatest(url).catch(() => undefined);
  // Read after the answer: a notice shown meanwhile stays recorded.
  const state = readUpdateState(dir);
  await writeUpdateState(dir, { checked_at: new Date().toISOString(), latest: latest ?? state?.latest, notified_at: state?.notified_at });
}

/**
 * The session a row of `members each` runs its command in: the run's client
 * (one pacer, one connection pool, one cache of student lookups), settings
 * and record, with the row's output captured instead of printed. The run
 * asked once for the whole run and handles the signals, so a row neither
 * asks nor listens.
 */
import { Readable } from 'node:stream';
import { StoppingApi, type Api } from '../../../api/client.js';
import type { Journal } from '../../../audit/journal.js';
import type { Settings } from '../../../config/settings.js';
import type { StudentCache } from '../../../domain/resolve.js';
import { collectNames, type NameRequest } from '../../../domain/names.js';
import type { GlobalOptions, Io, OutStream } from '../../../lib/io.js';
import { UsageError } from '../../../lib/errors.js';
import { Session } from '../../../session/session.js';

/** Thrown by a row checked before the run (RowSession in `check` mode) where it would first reach the server: its checks passed. */
export class RowChecked extends Error {
  constructor() {
    super('row checked');
  }
}

/** A stream that keeps what is written to it. */
export class Captured implements OutStream {
  private readonly chunks: string[] = [];
  readonly isTTY = false;

  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }

  text(): string {
    return this.chunks.join('');
  }
}

/** The streams of one row: stdout and stderr captured, no stdin, no signals (the run has them). */
export function rowIo(parent: Io): Io & { stdout: Captured; stderr: Captured } {
  const none = () => () => undefined;
  return {
    stdout: new Captured(), stderr: new Captured(), stdin: Readable.from([]), env: parent.env, cwd: parent.cwd,
    onInterrupt: none, onTerminate: none, pid: parent.pid, isRunning: parent.isRunning?.bind(parent), atQuit: parent.atQuit?.bind(parent),
  };
}

/** Global options a row's command line may not set: they are the run's (given before `each`). */
const RUN_OPTIONS = ['profile', 'baseUrl', 'output', 'json', 'out', 'fields', 'csvDialect', 'timeout', 'retries', 'summary', 'notify', 'notifyAlways', 'ping'] as const;

/**
 * The options a row runs with: the run's, printing JSON (its fields go into
 * the results) without --fields, and answering yes (the run was confirmed).
 */
export function rowOptions(run: GlobalOptions, raw: Record<string, unknown>, defaults: Record<string, unknown>): GlobalOptions {
  const own = RUN_OPTIONS.filter((name) => raw[name] !== undefined && raw[name] !== defaults[name]);
  if (own.length > 0) throw new UsageError(`--${own.map((name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join(', --')} ${own.length === 1 ? 'is' : 'are'} the run's: give ${own.length === 1 ? 'it' : 'them'} before \`each\`, not in the row's command`);
  return { ...run, output: 'json', fields: undefined, out: undefined, yes: true, quiet: false, color: false, pager: false, header: true };
}

/** A checked row's record: its first change stops the row, before anything is written. */
const stoppingJournal: Journal = {
  command: '',
  begin: () => Promise.reject(new RowChecked()),
  with: () => stoppingJournal,
  as: () => stoppingJournal,
};

export interface RowSessionOptions {
  /** The session of the `each` run. */
  run: Session;
  /** The run's record, bound to this row's line; none in `check` mode and for a dry run. */
  journal?: Journal;
  /** The run's student lookups: a student named on several rows is looked up once. */
  lookups?: StudentCache;
  /** `check`: stop where the command would first reach the server (RowChecked); `run`: run it. */
  mode: 'check' | 'run';
  /** `check` mode: told of each product or course name the command asks to resolve (the run resolves them all at once). */
  names?: (request: NameRequest) => void;
}

export class RowSession extends Session {
  /** Read by audit/journal.ts openJournal: the row's changes go into the run's record (`check` mode: none is written). */
  readonly run?: Journal;
  override readonly lookups?: StudentCache;

  constructor(globals: GlobalOptions, io: Io, private readonly row: RowSessionOptions) {
    super(globals, { io });
    this.run = row.mode === 'check' ? stoppingJournal : row.journal;
    this.lookups = row.lookups;
  }

  override settings(): Promise<Settings> {
    return this.row.run.settings();
  }

  override settingsWithTokens(needed: 'api' | 'report' | 'all'): Promise<Settings> {
    return this.row.run.settingsWithTokens(needed);
  }

  /** `check` mode: a client that collects the names resolved through it and stops at the first request. */
  override async api(): Promise<Api> {
    if (this.row.mode === 'run') return this.row.run.api();
    const api = new StoppingApi(() => new RowChecked());
    const names = this.row.names;
    if (names) collectNames(api, names);
    return api;
  }

  /** The run confirmed once for every row. */
  override async confirm(): Promise<void> {
    if (this.row.mode === 'check') throw new RowChecked();
  }

  override async agrees(): Promise<boolean> {
    if (this.row.mode === 'check') throw new RowChecked();
    return true;
  }

  /** The run handles Ctrl-C and SIGTERM: it starts no new row, and the rows in flight finish. */
  override guarded<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}

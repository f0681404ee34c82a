/**
 * The change record, intent first: every change writes what it is about to
 * do, and the state it saw, BEFORE its request (an intent, intents.ts), and
 * its outcome after (a record in `audit.jsonl`). An intent left without an
 * outcome — a kill, a crash, a power cut, a second Ctrl-C — is checked on the
 * server by the next run that reaches it (resolve.ts) and completed as
 * applied or not applied: history and undo see every change that happened.
 *
 * ```ts
 * const journal = await openJournal(session, { command: 'students transfer', reason });
 * const change = await journal.begin({ action: 'revoke', student, student_id, product_id, result: 'revoked', before });
 * try {
 *   ({ requestId } = await revokeProduct(api, student_id, product_id));
 * } catch (error) {
 *   await change.failed(error); // drops the intent only when the error proves nothing changed
 *   throw error;
 * }
 * await change.applied({ request_id: requestId });
 * ```
 *
 * docs/audit-and-undo.md holds the rules for new commands.
 */
import { hostname } from 'node:os';
import { ApiError } from '../lib/errors.js';
import { newAuditId, type AuditEntry, type AuditRecord } from './log.js';
import { intentPath, logSize, removeIntent, writeIntent, type Intent } from './intents.js';
import type { IntentRows } from './record.js';
import { stamper, teamRecord, write, type AuditContext, type Stamp } from './stamp.js';

export type { ChangeGate } from './stamp.js';

/** A change about to be sent: the record it will have if applied, `result` included (`granted`, `revoked`…). */
export type ChangeEntry = Omit<AuditEntry, 'command'> & { command?: string };

/** One change whose intent is on disk; exactly one of its methods ends it (or none: see `failed`). */
export interface PendingChange {
  /** The audit id the change has, whatever its outcome (`members undo ID`). */
  readonly id: string;
  /** The server applied it: the record is completed with `details` (request id, the subscription made…); resolves to its id. */
  applied(details?: Partial<AuditEntry>): Promise<string>;
  /**
   * The request failed. A refusal (a 4xx answer: nothing was changed) drops
   * the intent; any other failure (a 5xx, a timeout, the network, an
   * interrupt) leaves it, and the next run checks the server.
   */
  failed(error: unknown): Promise<void>;
  /** Nothing was changed after all (found done by someone else): the intent is dropped, nothing recorded. */
  dropped(): void;
}

export interface Journal {
  /**
   * Writes the intent; call it right before the request, after any question.
   * After Ctrl-C it throws InterruptedError (nothing is sent) unless `repair`:
   * a change that puts back what a failed one took (a renewal's restore).
   */
  begin(entry: ChangeEntry, options?: { repair?: boolean }): Promise<PendingChange>;
  /** The command its records name (`students grant`, `students grant --file`…). */
  readonly command: string;
  /** This journal with more fields set on every record (a bulk row's `line`). */
  with(fields: Partial<AuditEntry>): Journal;
  /** This journal with fields that win over those of each change: an undo records the grant or revoke it makes as `action: undo`, `undoes: ID`. */
  as(fields: Partial<AuditEntry>): Journal;
}

/** A group of changes under one run id (a bulk file, a sync, a transfer): each record carries `run_id`. */
export interface RunJournal extends Journal {
  readonly runId: string;
  /**
   * Records the run itself (action `bulk`, with `counts`) when any of its
   * changes was applied; resolves to the run's id, or undefined. `earlier`:
   * the changes an earlier attempt of this run made (openRun's `runId`).
   * `open`: the run goes on in a later attempt, which records it; nothing is
   * written now (until then history derives the run from its changes, runs.ts).
   */
  finish(summary: RunSummary): Promise<string | undefined>;
}

export interface RunSummary {
  counts: Readonly<Record<string, number>>;
  interrupted?: boolean;
  earlier?: number;
  open?: boolean;
}

/** A failure that proves the server changed nothing: it answered, and refused (4xx). */
export function provesNothingChanged(error: unknown): boolean {
  const status = error instanceof ApiError ? error.status ?? 0 : 0;
  return status >= 400 && status < 500;
}

interface Shared {
  context: AuditContext;
  stamp: Stamp;
  dir?: string;
  /** The team record's intents, when the profile uses one: then no change is sent before its intent is a row. */
  team?: IntentRows;
  host: string;
  applied: number;
  /**
   * A run on the team record: the records on their way (a row does not wait for its record's commit to take the
   * next: its intent is durable already), and the first that could not be written, which stops the run.
   */
  pending?: Set<Promise<void>>;
  lost?: unknown;
}

async function shared(context: AuditContext): Promise<Shared> {
  const [stamp, dir, team] = await Promise.all([stamper(context), context.configDir().catch(() => undefined), teamRecord(context)]);
  return { context, stamp, dir, team: team?.intents, host: hostname(), applied: 0 };
}

function journal(state: Shared, bound: Partial<AuditEntry>, over: Partial<AuditEntry> = {}): Journal {
  return {
    async begin(entry, options = {}) {
      if (state.lost !== undefined) throw state.lost;
      const { gate } = state.context;
      gate?.opening(options.repair === true);
      const record = state.stamp({ ...bound, ...entry, ...over } as AuditEntry);
      let open = true;
      const close = () => {
        if (open) gate?.closed();
        open = false;
      };
      const { team } = state;
      if (team) {
        try {
          await team.write(intentOf(state, record));
        } catch (error) {
          close();
          throw error;
        }
      }
      const path = team || state.dir === undefined ? undefined : intent(state, record);
      // recorded: the team record's append removed the intent row with it (postgres-record.ts).
      const finish = (recorded = false) => {
        if (path) removeIntent(path);
        // A row left behind (the database gone meanwhile) is checked by a later run, as a file left by a kill is.
        if (team && !recorded) void team.remove(record.id).catch(() => undefined);
        close();
      };
      return {
        id: record.id,
        async applied(details = {}) {
          const { id, time, ...fields } = record;
          const writing = write(state.context, [state.stamp({ ...fields, ...details } as AuditEntry, id, time)]);
          state.applied++;
          // The team record went away after the change was sent: its intent row (if kept) or stderr holds it; the run stops.
          const lost = (error: unknown) => {
            close();
            state.lost ??= error;
            return error;
          };
          const { pending } = state;
          if (pending) {
            const settled = writing.then(() => finish(true), lost).then(() => void pending.delete(settled));
            pending.add(settled);
            return id;
          }
          try {
            await writing;
          } catch (error) {
            throw lost(error);
          }
          finish(true);
          return id;
        },
        async failed(error) {
          if (provesNothingChanged(error)) finish();
          else close();
        },
        dropped: () => finish(),
      };
    },
    command: String(over.command ?? bound.command),
    with: (fields) => journal(state, { ...bound, ...fields }, over),
    as: (fields) => journal(state, bound, { ...over, ...fields }),
  };
}

/**
 * Writes the intent of `record`; its path, or undefined when it could not be
 * written (the change goes on: its outcome is still recorded, or printed).
 */
function intent(state: Shared, record: AuditRecord): string | undefined {
  const dir = state.dir as string;
  try {
    writeIntent(dir, intentOf(state, record, logSize(dir)));
    return intentPath(dir, record.id);
  } catch {
    return undefined;
  }
}

/** The intent of `record`; a team record's row has no log offset (its outcome is looked up by id). */
function intentOf(state: Shared, record: AuditRecord, logOffset = 0): Intent {
  const deadline = new Date(Date.parse(record.time) + inFlightMs(state.context.globals, record)).toISOString();
  return { record, pid: state.context.io.pid ?? 0, host: state.host, log_offset: logOffset, deadline };
}

/** The defaults of --timeout and --retries (program.ts). */
const DEFAULTS = { timeoutMs: 30_000, retries: 3 };

/**
 * How long the requests of a change may stay on their way: each attempt may
 * take --timeout, and a renewal (its own or an undo's) sends two requests.
 * A resolver that finds the change not applied before then leaves it pending.
 */
export function inFlightMs(globals: AuditContext['globals'], record: Pick<AuditRecord, 'action' | 'result'>): number {
  const { timeoutMs, retries } = globals ?? DEFAULTS;
  const requests = record.action === 'renew' || record.result === 'renewed' ? 2 : 1;
  return timeoutMs * (retries + 1) * requests;
}

/**
 * A journal for one command's changes; `bound` fields (`command`, `reason`…) go on every record.
 * A command run as a row of a larger run (`members each`) is given that run's journal as `context.run`:
 * its changes then carry the run's id and the row's line.
 */
export async function openJournal(context: AuditContext & { readonly run?: Journal }, bound: Partial<AuditEntry> & { command: string }): Promise<Journal> {
  // A row's own unset fields (no --reason) leave the run's as they are.
  if (context.run) return context.run.with(Object.fromEntries(Object.entries(bound).filter(([, value]) => value !== undefined)));
  return journal(await shared(context), bound);
}

/**
 * A journal whose changes form one run (`run_id`), recorded as a whole by `finish`; `source` goes on the run's record only.
 * `runId`: the run an earlier attempt began and never recorded (killed), continued under its id.
 */
export async function openRun(context: AuditContext, bound: Partial<AuditEntry> & { command: string }, continued: { runId?: string } = {}): Promise<RunJournal> {
  const state = await shared(context);
  if (state.team) state.pending = new Set();
  const runId = continued.runId ?? newAuditId();
  const { source: _source, ...each } = bound;
  return {
    ...journal(state, { ...each, run_id: runId }),
    runId,
    async finish(summary) {
      await Promise.all(state.pending ?? []);
      if (state.applied + (summary.earlier ?? 0) < 1) return undefined;
      if (summary.open) {
        if (state.lost !== undefined) throw state.lost;
        return runId;
      }
      const failed = summary.counts.failed ?? 0;
      const result = summary.interrupted ? 'interrupted' : failed > 0 ? 'partial' : 'completed';
      await write(state.context, [state.stamp({ ...bound, action: 'bulk', result, counts: { ...summary.counts } } as AuditEntry, runId)]);
      // A record of the last rows lost (no row came after to stop at): the run still ends in exit 11.
      if (state.lost !== undefined) throw state.lost;
      return runId;
    },
  };
}

/**
 * Sends the change begun as `change` and records how it ended: its answer
 * completes the record (`complete` says with what), a failure goes to
 * `failed` and is thrown again.
 */
export async function recorded<T>(change: PendingChange, send: () => Promise<T>, complete: (answer: T) => Partial<AuditEntry> = () => ({})): Promise<T> {
  let answer: T;
  try {
    answer = await send();
  } catch (error) {
    await change.failed(error);
    throw error;
  }
  await change.applied(complete(answer));
  return answer;
}

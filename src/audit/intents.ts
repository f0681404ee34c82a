/**
 * The intents of changes in flight: `audit-intents/ID.json` beside the log,
 * one small file per change, on disk (fsync'd) before its request is sent and
 * removed once its outcome is in `audit.jsonl`. What a kill, a crash or a
 * power cut leaves here is a change whose outcome nobody recorded: a later
 * run checks it on the server (resolve.ts).
 *
 * A file is claimed before it is resolved, by renaming it to
 * `ID.PID.claim` (a rename is atomic: of two runs resolving at once, one
 * wins), so that no change is resolved, and recorded, twice.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as z from 'zod';
import { auditIntentsDir, auditLogPath } from '../config/paths.js';
import type { AuditRecord } from './log.js';

export interface Intent {
  /** The record as it will read once applied: `result` is the one intended. */
  record: AuditRecord;
  /** The process that sends the change, and its machine: while it runs, its intents are its own. */
  pid: number;
  host: string;
  /** The size of `audit.jsonl` when the intent was written: its outcome, if recorded, lies after. */
  log_offset: number;
  /**
   * When its requests can no longer be on their way (ISO time): the intent's
   * time + --timeout × attempts (× requests). Until then, a server that does
   * not show the change may still be about to apply it. Intents written
   * before this field have none: checked at once, as they always were.
   */
  deadline?: string;
}

/** An intent found in the directory; `intent` is undefined when the file is not one (cut short before its request was sent). */
export interface FoundIntent {
  id: string;
  path: string;
  intent?: Intent;
  /** The resolver holding it, when claimed. */
  claimedBy?: number;
}

/** The current size of the log: where the outcomes of changes begun now will lie. */
export function logSize(dir: string): number {
  try {
    return statSync(auditLogPath(dir)).size;
  } catch {
    return 0;
  }
}

/** Writes the intent and waits for the disk (flush: fsync): only then may its request be sent. Throws on failure. */
export function writeIntent(dir: string, intent: Intent): void {
  const folder = auditIntentsDir(dir);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeSynced(join(folder, `${intent.record.id}.json`), intent);
}

/** A new file holding `intent`, on the disk when this returns (flush: fsync); wx: never through one (or a link) already there. */
function writeSynced(path: string, intent: Intent): void {
  writeFileSync(path, JSON.stringify(intent), { flag: 'wx', mode: 0o600, flush: true });
}

/**
 * Puts `intent` in place of the one claimed at `claimed` (by this run), and
 * gives it back unclaimed: its run is gone, so the next run checks it. A
 * crash on the way leaves the claim (old or new content), which a later run
 * takes back once this one is gone.
 */
export function replaceClaimedIntent(dir: string, claimed: string, intent: Intent): void {
  // The claim's name holds this run's pid and no other run writes a claimed intent: its own name is unique.
  const temporary = join(auditIntentsDir(dir), `.${basename(claimed)}.tmp`);
  writeSynced(temporary, intent);
  renameSync(temporary, claimed);
  renameSync(claimed, intentPath(dir, intent.record.id));
}

/** Forgets an intent whose outcome is recorded (or that was never sent). */
export function removeIntent(path: string): void {
  rmSync(path, { force: true });
}

export function intentPath(dir: string, id: string): string {
  return join(auditIntentsDir(dir), `${id}.json`);
}

const NAME = /^([0-9a-z]+-[0-9a-f]+)\.(?:json|(\d+)\.claim)$/;

/** The intents in the directory, unclaimed and claimed alike; none when there is no directory. */
export function listIntents(dir: string): FoundIntent[] {
  const folder = auditIntentsDir(dir);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const match = NAME.exec(name);
    if (!match) return [];
    const path = join(folder, name);
    const found: FoundIntent = { id: match[1] as string, path, intent: readIntent(path) };
    if (match[2] !== undefined) found.claimedBy = Number(match[2]);
    return [found];
  });
}

const IntentShape = z.object({
  record: z.looseObject({ id: z.string(), base_url: z.string(), time: z.string() }),
  pid: z.number(),
  host: z.string(),
  log_offset: z.number(),
  deadline: z.iso.datetime().optional(),
});

function readIntent(path: string): Intent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const intent = IntentShape.safeParse(parsed);
  return intent.success ? (intent.data as unknown as Intent) : undefined;
}

/** Gives back an intent claimed at `claimed` unchanged: it could not be concluded yet, a later run checks it again. */
export function releaseIntent(dir: string, claimed: string, id: string): void {
  renameSync(claimed, intentPath(dir, id));
}

/** Takes an intent for `pid` to resolve; undefined when another run took it first. */
export function claimIntent(dir: string, found: FoundIntent, pid: number): string | undefined {
  const claimed = join(auditIntentsDir(dir), `${found.id}.${pid}.claim`);
  try {
    renameSync(found.path, claimed);
    return claimed;
  } catch {
    return undefined;
  }
}

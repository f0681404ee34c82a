/**
 * The completion helpers the shell scripts call on Tab, kept light: they read
 * the config file and the audit log as JSON text, without commander, zod or
 * conf (bin/members.js runs them before anything else loads). They print
 * values one per line, `value<TAB>description` where a shell can show one,
 * never a token, and nothing at all on any error.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { auditLogPath, configDir } from './config/paths.js';
import { printableLine } from './output/sanitize.js';

export const COMPLETION_HELPERS = ['profiles', 'undo'] as const;
export type CompletionHelper = (typeof COMPLETION_HELPERS)[number];

/** The audit ids offered after `undo`: the newest changes of this kind, newest first. */
const UNDO_OFFERED = 20;
/** Only the end of the log is read: a Tab on a 100 MB log stays instant. */
const TAIL_BYTES = 256 * 1024;
const UNDOABLE = new Set(['grant', 'revoke', 'renew', 'delete', 'scores.set', 'undo']);


function profileNames(dir: string): string[] {
  const config = JSON.parse(readFileSync(`${dir}/config.json`, 'utf8')) as { profiles?: Record<string, unknown> };
  return Object.keys(config.profiles ?? {}).filter((name) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)).sort();
}

function tail(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    // Cut at the first whole line unless the whole file was read.
    return length === size ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
}

interface Change { id?: unknown; action?: unknown; result?: unknown; command?: unknown; student?: unknown; product_id?: unknown; time?: unknown }

function undoCandidates(dir: string): string[] {
  const changes: Change[] = [];
  for (const line of tail(auditLogPath(dir)).split('\n')) {
    try {
      changes.push(JSON.parse(line) as Change);
    } catch {
      // A torn or hand-edited line: `members history` reports those.
    }
  }
  return changes
    .filter((change) => typeof change.id === 'string' && /^[a-z0-9-]+$/.test(change.id) && UNDOABLE.has(String(change.action)))
    .reverse()
    .slice(0, UNDO_OFFERED)
    .map((change) => {
      const what = [change.command, change.student, change.product_id, typeof change.time === 'string' ? change.time.slice(0, 16).replace('T', ' ') : undefined]
        .filter((part) => typeof part === 'string' && part !== '').join(' ');
      return `${change.id as string}\t${printableLine(what)}`;
    });
}

export function runCompletionHelper(helper: CompletionHelper, env: Record<string, string | undefined>, write: (text: string) => void): void {
  try {
    const dir = configDir(env);
    const lines = helper === 'profiles' ? profileNames(dir) : undoCandidates(dir);
    if (lines.length > 0) write(`${lines.join('\n')}\n`);
  } catch {
    // No config or log yet, or one that cannot be read: a completion prints nothing rather than an error.
  }
}

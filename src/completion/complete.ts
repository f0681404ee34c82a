/**
 * The completion helpers the shell scripts call on Tab, kept light: they read
 * the config file, the audit log and the catalog cache as JSON text, without commander, zod or
 * conf (bin/members.js runs them before anything else loads). They print
 * values one per line, `value<TAB>description` where a shell can show one,
 * never a token, and nothing at all on any error.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { readCatalog } from '../config/catalog-cache.js';
import { auditLogPath, configDir } from '../config/paths.js';
import { chosenProfile, givenBaseUrl } from '../config/precedence.js';
import { printableLine } from '../output/sanitize.js';

export const COMPLETION_HELPERS = ['profiles', 'undo', 'products', 'courses'] as const;
export type CompletionHelper = (typeof COMPLETION_HELPERS)[number];

/** The audit ids offered after `undo`: the newest changes of this kind, newest first. */
const UNDO_OFFERED = 20;
/** Only the end of the log is read: a Tab on a 100 MB log stays instant. */
const TAIL_BYTES = 256 * 1024;
/** A run's own record (`bulk`) too: `members undo RUN_ID` reverses the whole run. */
const UNDOABLE = new Set(['grant', 'revoke', 'renew', 'delete', 'scores.set', 'undo', 'bulk']);


interface ConfigText { active?: unknown; profiles?: Record<string, { base_url?: unknown } | undefined> }

const readConfig = (dir: string) => JSON.parse(readFileSync(`${dir}/config.json`, 'utf8')) as ConfigText;

function profileNames(dir: string): string[] {
  return Object.keys(readConfig(dir).profiles ?? {}).filter((name) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)).sort();
}

/**
 * Short options that take a value, as commander reads a stack of them (`-qp
 * staging`, `-pstaging`): the first of these letters takes the rest of the
 * word, or the next word. A test checks this list against the program.
 */
export const SHORT_OPTIONS_WITH_VALUE = 'pofX';

/** `--profile` and `--base-url` as the command line being completed gives them (the words before the cursor). */
export function lineSettings(line: string): { profile?: string; baseUrl?: string } {
  const words = line.trim().split(/\s+/).slice(1).map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
  const found: { profile?: string; baseUrl?: string } = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--') break;
    const long = /^--(profile|base-url)(?:=(.*))?$/.exec(word);
    if (long) {
      const value = long[2] ?? words[++i];
      if (long[1] === 'profile') found.profile = value;
      else found.baseUrl = value;
      continue;
    }
    if (!/^-[^-]/.test(word)) continue;
    const at = [...word.slice(1)].findIndex((letter) => SHORT_OPTIONS_WITH_VALUE.includes(letter));
    if (at < 0) continue;
    const rest = word.slice(at + 2);
    const value = rest === '' ? words[++i] : rest;
    if (word[at + 1] === 'p') found.profile = value;
  }
  return found;
}

/** The base URL a command typed on `line` would use (contract §1.1: flag > environment > profile > the active profile). */
function baseUrlOf(dir: string, env: Record<string, string | undefined>, line: string): string | undefined {
  const typed = lineSettings(line);
  const given = givenBaseUrl(typed, env);
  if (given) return given.value;
  const config = readConfig(dir);
  const profile = chosenProfile(typed, env, () => (typeof config.active === 'string' ? config.active : undefined)).value;
  const baseUrl = config.profiles?.[profile]?.base_url;
  return typeof baseUrl === 'string' ? baseUrl : undefined;
}

/** Ids with their titles, as the last run that read the whole list saw them (config/catalog-cache.ts). */
function catalogCandidates(dir: string, env: Record<string, string | undefined>, line: string, kind: 'products' | 'courses'): string[] {
  const baseUrl = baseUrlOf(dir, env, line);
  if (baseUrl === undefined) return [];
  return readCatalog(dir, baseUrl, kind)
    .filter((item) => /^[A-Za-z0-9_.:@+=/-]+$/.test(item.id))
    .map((item) => `${item.id}\t${printableLine(item.title)}`);
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

/** `line`: the command line up to the cursor, which the scripts pass (for `-p` and `--base-url`). */
export function runCompletionHelper(helper: CompletionHelper, env: Record<string, string | undefined>, write: (text: string) => void, line = ''): void {
  try {
    const dir = configDir(env);
    const lines = helper === 'profiles' ? profileNames(dir)
      : helper === 'undo' ? undoCandidates(dir)
        : catalogCandidates(dir, env, line, helper);
    if (lines.length > 0) write(`${lines.join('\n')}\n`);
  } catch {
    // No config or log yet, or one that cannot be read: a completion prints nothing rather than an error.
  }
}

/**
 * The products and courses a run last read in full, kept per API (base URL)
 * in `catalog.json` beside the config, so that completion can offer their
 * ids with titles offline: a Tab never makes a request nor needs a token.
 * Written whenever a run reads a whole list anyway (resolving a name, `products
 * list` that saw every page, `students show`); only ids and titles, no personal data.
 * A cache: a write that fails, or races another run's, loses nothing that the next read will not bring back.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type CatalogKind = 'products' | 'courses';

export interface CatalogItem {
  id: string;
  title: string;
}

/** [id, title] pairs: the file stays small and quick to parse on every Tab. */
type Entries = Array<[string, string]>;

interface CatalogFile {
  /** By catalogKey(base URL). */
  apis: Record<string, { saved_at: string } & Partial<Record<CatalogKind, Entries>>>;
}

/** Bounds that keep a Tab instant whatever the platform holds. */
const MAX_ITEMS = 1000;
const MAX_APIS = 20;

export function catalogPath(dir: string): string {
  return path.join(dir, 'catalog.json');
}

/** One key per API: the base URL as the client uses it (no trailing slash, lowercase host); undefined when it is no URL. */
export function catalogKey(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

function readFile(dir: string): CatalogFile {
  try {
    const parsed = JSON.parse(readFileSync(catalogPath(dir), 'utf8')) as Partial<CatalogFile> | null;
    return parsed && typeof parsed.apis === 'object' && parsed.apis !== null ? { apis: parsed.apis } : { apis: {} };
  } catch {
    return { apis: {} };
  }
}

/** The items remembered for an API, as they were read; [] when none. */
export function readCatalog(dir: string, baseUrl: string, kind: CatalogKind): CatalogItem[] {
  const key = catalogKey(baseUrl);
  const entries = key === undefined ? undefined : readFile(dir).apis[key]?.[kind];
  if (!Array.isArray(entries)) return [];
  return entries
    .filter((entry): entry is [string, string] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string')
    .map(([id, title]) => ({ id, title }));
}

/** Remembers a whole list; writes only when it changed. Never throws: completion is a convenience. */
export function saveCatalog(dir: string, baseUrl: string, kind: CatalogKind, items: readonly CatalogItem[], now = new Date()): void {
  const key = catalogKey(baseUrl);
  if (key === undefined) return;
  try {
    const file = readFile(dir);
    const entries: Entries = items.slice(0, MAX_ITEMS).map((item) => [item.id, item.title]);
    const before = file.apis[key];
    if (JSON.stringify(before?.[kind]) === JSON.stringify(entries)) return;
    file.apis[key] = { ...before, [kind]: entries, saved_at: now.toISOString() };
    // The APIs used most recently stay.
    const kept = Object.entries(file.apis).sort(([, a], [, b]) => String(b.saved_at).localeCompare(String(a.saved_at))).slice(0, MAX_APIS);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${catalogPath(dir)}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify({ apis: Object.fromEntries(kept) })}\n`, { mode: 0o600 });
      renameSync(temporary, catalogPath(dir));
    } finally {
      rmSync(temporary, { force: true });
    }
  } catch {
    // A read-only or full disk: the next Tab offers what it had.
  }
}

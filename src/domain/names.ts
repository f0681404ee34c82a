/**
 * PRODUCT and COURSE arguments (contract §1.3): the id, the exact title (case-
 * and accent-insensitive; a course's slug too), or a unique prefix of a
 * title. Products and courses are few: each list is read once per run and
 * kept with the API client. Unknown or ambiguous is a usage error (exit 2)
 * with candidates, raised before any change.
 */
import type { Api } from '../api/client.js';
import { listCollection } from '../api/endpoints/catalog.js';
import distance from 'damerau-levenshtein';
import { NotFoundError, RouteMissError, UsageError } from '../lib/errors.js';

export interface Named {
  id: string;
  title: string;
}

interface Catalog {
  noun: 'product' | 'course';
  /** The command that lists them, for messages. */
  listCommand: string;
  load(api: Api): Promise<Array<{ id: string; title?: string | null; slug?: string | null }>>;
}

const PRODUCTS: Catalog = {
  noun: 'product', listCommand: 'members products list --all',
  load: async (api) => collect(listCollection(api, 'products', { all: true, perPage: 100, concurrency: 4 })),
};
const COURSES: Catalog = {
  noun: 'course', listCommand: 'members courses list --all',
  load: async (api) => collect(listCollection(api, 'courses', { all: true, perPage: 100, concurrency: 4 })),
};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const loaded = new WeakMap<Api, Map<Catalog, Promise<Array<{ id: string; title?: string | null; slug?: string | null }>>>>();

function entries(api: Api, catalog: Catalog) {
  let byCatalog = loaded.get(api);
  if (!byCatalog) loaded.set(api, (byCatalog = new Map()));
  let list = byCatalog.get(catalog);
  if (!list) {
    list = catalog.load(api).then((items) => {
      api.onCatalog?.(`${catalog.noun}s`, items);
      return items;
    });
    byCatalog.set(catalog, list);
    // A failed read may succeed later in the run.
    list.catch(() => byCatalog.delete(catalog));
  }
  return list;
}

/** A PRODUCT or COURSE argument a command asked to resolve, as it asked. */
export interface NameRequest {
  noun: 'product' | 'course';
  input: string;
  argument: string;
  /** Read the list even for an id (resolveProduct's `check`). */
  check?: boolean;
}

/**
 * Clients whose names are collected rather than resolved: a command checked
 * before a run (`members each`) names them all, and the run resolves each
 * distinct one once (resolveNames) before anything is sent.
 */
const collectors = new WeakMap<Api, (request: NameRequest) => void>();

/** From now on, the names resolved through `api` go to `sink` and resolve to themselves. */
export function collectNames(api: Api, sink: (request: NameRequest) => void): void {
  collectors.set(api, sink);
}

/** Whether `api` collects names (a command checked before a run) rather than resolving them. */
export const collectsNames = (api: Api) => collectors.has(api);

/** The name collected, taken as it is (`api` collects), or undefined (resolve it). */
function collected(api: Api, request: NameRequest): Named | undefined {
  const sink = collectors.get(api);
  if (!sink) return undefined;
  sink(request);
  return { id: request.input.trim(), title: '' };
}

/** Resolves a collected name as the command would have: what it names, or the command's own error. */
export function resolveName(api: Api, request: NameRequest): Promise<Named> {
  return request.noun === 'product'
    ? resolveProduct(api, request.input, { argument: request.argument, check: request.check })
    : resolveCourse(api, request.input, request.argument);
}

/** Every product's title by id, from the run's one read of the list (for history and the student view). */
export async function productTitles(api: Api): Promise<Map<string, string>> {
  return new Map((await entries(api, PRODUCTS)).map((item) => [item.id, item.title ?? '']));
}

/**
 * Titles as people type them: case, accents, runs of spaces (a non-breaking
 * one too), the dash typed (`-`, `–`, `—`, with or without spaces around it)
 * and straight or curly quotes do not count.
 */
export const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  .replace(/[\u2018\u2019\u201a\u201b\u2032`\u00b4]/g, "'").replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
  .replace(/\s*[\u2010-\u2015\u2212-]\s*/g, '-')
  .replace(/\s+/g, ' ').trim();

/** A name that matches nothing: a usage error (exit 2) that also carries its "did you mean" part for other messages. */
export class UnknownNameError extends UsageError {
  constructor(message: string, readonly hint: string) {
    super(`${message}${hint}`);
  }
}

/** `\n  id  title` lines, at most 8 of them. */
const candidates = (list: ReadonlyArray<{ id: string; title?: string | null }>) =>
  list.slice(0, 8).map((item) => `\n  ${item.id}  ${item.title ?? ''}`).join('') + (list.length > 8 ? `\n  … and ${list.length - 8} more` : '');

/**
 * Picks the one item `input` names, from a list, by these rules in order:
 * id; exact title or slug; unique title prefix. Throws UsageError otherwise
 * (UnknownNameError when nothing matches), with candidates.
 */
export function pick<T extends { id: string; title?: string | null; slug?: string | null }>(
  items: readonly T[], input: string, what: { noun: string; argument: string; listCommand: string },
): T {
  const wanted = input.trim();
  if (wanted === '') throw new UsageError(`empty ${what.argument}; give the id, the title or the start of the title of a ${what.noun}`);
  const byId = items.find((item) => item.id === wanted);
  if (byId) return byId;
  const key = fold(wanted);
  const exact = items.filter((item) => fold(item.title ?? '') === key || (item.slug !== undefined && item.slug !== null && fold(item.slug) === key));
  if (exact.length === 1) return exact[0] as T;
  const prefixed = exact.length > 1 ? exact : items.filter((item) => fold(item.title ?? '').startsWith(key));
  if (prefixed.length === 1) return prefixed[0] as T;
  if (prefixed.length > 1) {
    throw new UsageError(`${what.argument} ${JSON.stringify(wanted)} names ${prefixed.length} ${what.noun}s; give more of the title, or the id:${candidates(prefixed)}`);
  }
  const near = nearest(items, key);
  const hint = near.length > 0 ? ` Did you mean:${candidates(near)}` : ` See \`${what.listCommand}\`.`;
  throw new UnknownNameError(`no ${what.noun} ${JSON.stringify(wanted)} (by id, title${what.noun === 'course' ? ', slug' : ''} or start of title).`, hint);
}

/**
 * The titles `key` (folded) may have meant, nearest first: any word of 3
 * letters or more found in a title (or slug) — "python" → "Programação em
 * Python" — or a word a typo away from one of its words (Damerau-Levenshtein:
 * 1 edit up to 5 letters, 2 beyond) — "pyton" → "Python Pro" (issue 38).
 */
export function nearest<T extends { title?: string | null; slug?: string | null }>(items: readonly T[], key: string): T[] {
  const words = key.split(/[\s-]+/).filter((word) => word.length >= 3);
  const ranked: Array<[T, number]> = [];
  for (const item of items) {
    const text = fold(`${item.title ?? ''} ${item.slug ?? ''}`);
    if (words.some((word) => text.includes(word))) {
      ranked.push([item, 0]);
      continue;
    }
    const theirs = text.split(/[\s-]+/).filter((word) => word.length >= 3);
    let best = Number.POSITIVE_INFINITY;
    for (const word of words) {
      for (const their of theirs) {
        const steps = distance(word, their).steps;
        if (steps <= typoBudget(word)) best = Math.min(best, steps);
      }
    }
    if (best !== Number.POSITIVE_INFINITY) ranked.push([item, best]);
  }
  // Stable: equally near titles keep the list's order.
  return ranked.sort((a, b) => a[1] - b[1]).map(([item]) => item);
}

/** How many edits a typed word may be from the word meant: 1 up to 5 letters, 2 beyond. */
const typoBudget = (word: string) => (word.length <= 5 ? 1 : 2);

/** UUIDs and integers are ids as they are: no list is read for them (the server checks them), unless `check`. */
const LOOKS_LIKE_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i;

/** Whether resolving this PRODUCT argument reads the product list (a title, or `check`). */
export const readsProductList = (input: string, check = false) => check || !LOOKS_LIKE_ID.test(input.trim());

/**
 * The product a PRODUCT argument names: `{ id, title }` (title '' when the id
 * was taken as it is). `check`: read the list even for an id (dry runs).
 */
export async function resolveProduct(api: Api, input: string, options: { argument?: string; check?: boolean } = {}): Promise<Named> {
  const argument = options.argument ?? 'PRODUCT';
  const asked = collected(api, { noun: 'product', input, argument, check: options.check });
  if (asked) return asked;
  if (!readsProductList(input, options.check)) return { id: input.trim(), title: '' };
  const item = pick(await entries(api, PRODUCTS), input, { noun: 'product', argument, listCommand: PRODUCTS.listCommand });
  return { id: item.id, title: item.title ?? '' };
}

/**
 * For commands that read one record: `input` as an id first (one request, as
 * always); only when the server knows no such id, as a title. Unknown either
 * way keeps the server's 404 (exit 4), with what else was tried.
 */
export async function byIdOrName<T>(input: string, byId: (id: string) => Promise<T>, byName: () => Promise<Named>, what: string): Promise<T> {
  try {
    return await byId(input.trim());
  } catch (error) {
    if (!(error instanceof NotFoundError) || error instanceof RouteMissError) throw error;
    let named: Named;
    try {
      named = await byName();
    } catch (nameError) {
      // Nothing by that id nor by that name: still the lookup's "not found" (exit 4), with the near titles.
      if (nameError instanceof UnknownNameError) {
        const at = error.message.lastIndexOf(' (');
        const notFound = new NotFoundError(`${error.message.slice(0, at)}; no ${what} has that title either`, error.exitCode, error.request, error.status);
        // The candidates go after the request, on lines of their own.
        notFound.message += `.${nameError.hint}`;
        throw notFound;
      }
      // Several titles match: the user must say which (exit 2, with the candidates).
      if (nameError instanceof UsageError) throw nameError;
      // The list could not be read: the id's own 404 is the answer.
      throw error;
    }
    return byId(named.id);
  }
}

/** The course a COURSE argument names (id, title, slug or title prefix). */
/**
 * The course `input` names when this client has read the list already (a
 * run that checked its names first): no request, and undefined when the
 * list is not read or names nothing (the caller then looks it up as usual).
 */
export async function listedCourse(api: Api, input: string): Promise<Named | undefined> {
  const list = loaded.get(api)?.get(COURSES);
  if (!list) return undefined;
  try {
    const item = pick(await list, input, { noun: 'course', argument: 'COURSE', listCommand: COURSES.listCommand });
    return { id: item.id, title: item.title ?? '' };
  } catch {
    return undefined;
  }
}

export async function resolveCourse(api: Api, input: string, argument = 'COURSE'): Promise<Named> {
  const asked = collected(api, { noun: 'course', input, argument });
  if (asked) return asked;
  const item = pick(await entries(api, COURSES), input, { noun: 'course', argument, listCommand: COURSES.listCommand });
  return { id: item.id, title: item.title ?? '' };
}

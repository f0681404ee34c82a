/**
 * Dot paths into records (`product.title`): reading them, flattening a record
 * into them, and `--fields` selection. Pure functions.
 *
 * A key that itself contains a dot cannot be addressed; the API uses
 * snake_case keys.
 */
import { UsageError } from '../lib/errors.js';
import { pluralWord } from '../lib/values.js';
import type { JsonRecord, View } from './view.js';

const isObject = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Own properties only, so `constructor` or `__proto__` never resolve to something the API did not send. */
export function getPath(record: JsonRecord, path: string): unknown {
  // Most paths are one key: no split (csv and tables call this for every cell).
  if (!path.includes('.')) return isObject(record) && Object.hasOwn(record, path) ? record[path] : undefined;
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** Nested objects become dot paths, in the record's key order; arrays and scalars are leaves, an empty object has none. */
export function flatten(record: JsonRecord): JsonRecord {
  return Object.fromEntries(leaves(record, ''));
}

function leaves(record: JsonRecord, prefix: string): Array<[string, unknown]> {
  return Object.entries(record).flatMap(([key, value]): Array<[string, unknown]> =>
    isObject(value) ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]]);
}

/** The columns of csv and xlsx without --fields: every scalar field of a record, as dot paths in its key order. */
export function scalarPaths(record: JsonRecord): string[] {
  return Object.entries(flatten(record)).filter(([, value]) => !Array.isArray(value)).map(([path]) => path);
}

/**
 * Rebuilds a record with only `fields`, nested as their paths say
 * (`product.title` → `{"product": {"title": …}}`), in the order given. A field
 * the record lacks becomes null, so every record has the same shape. A path
 * inside another requested path (`product` and `product.title`) is already
 * covered by it.
 */
export function pickFields(record: JsonRecord, fields: readonly string[]): JsonRecord {
  const picked: JsonRecord = {};
  for (const field of fields) {
    if (fields.some((other) => field.startsWith(`${other}.`))) continue;
    const keys = field.split('.');
    const last = keys.pop() ?? field;
    let node = picked;
    for (const key of keys) {
      if (!Object.hasOwn(node, key)) setOwn(node, key, {});
      node = node[key] as JsonRecord;
    }
    setOwn(node, last, getPath(record, field) ?? null);
  }
  return picked;
}

/** Plain assignment would turn a key named `__proto__` into the object's prototype. */
function setOwn(target: JsonRecord, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Like gh's "Unknown JSON field". Judged on the first record only: a later
 * record may simply lack an optional field. A path of one of the view's
 * columns is always accepted, even when that record lacks it.
 */
/**
 * Before a change is sent: each --fields name must start with a field the
 * record will have (`known`, the keys of its schema), so that a typo is exit 2
 * with nothing sent, not exit 2 after the change was made.
 */
export function assertFieldsBeforeChange(fields: readonly string[] | undefined, known: readonly string[], view: View): void {
  if (!fields) return;
  const unknown = fields.filter((field) => !known.includes(field.split('.')[0] as string) && !view.columns.some((column) => column.path === field));
  if (unknown.length === 0) return;
  throw unknownFields(unknown, ' (nothing was sent)', known);
}

export function assertKnownFields(record: JsonRecord, fields: readonly string[], view: View): void {
  const unknown = fields.filter((field) =>
    getPath(record, field) === undefined && !view.columns.some((column) => column.path === field));
  if (unknown.length === 0) return;
  throw unknownFields(unknown, '', Object.keys(flatten(record)));
}

function unknownFields(unknown: readonly string[], note: string, available: readonly string[]): UsageError {
  const names = unknown.map((field) => JSON.stringify(field)).join(', ');
  return new UsageError(`unknown ${pluralWord(unknown.length, 'field')} ${names} in --fields${note}; available fields: ${available.join(', ')}`);
}

/**
 * The sandbox variants the end-to-end matrix runs every command against
 * (issue 13), and the output formats, with a reader that turns any format's
 * stdout back into flat records (dot paths, every cell as text) to compare.
 */
import { parse } from 'csv-parse/sync';

/** Seeded data shared by every variant, so that each can be compared with the default's. */
export const SEED = ['--students', '64', '--seed', '5'];

export interface Flavor {
  name: string;
  /** `members sandbox` flags. */
  args: string[];
  /**
   * The user's zone (TZ) for the runs: one where the server's midnight is
   * another day, so that a date-only field taken for an instant would show.
   */
  userTz: string;
}

export const FLAVORS: Flavor[] = [
  { name: 'default', args: [], userTz: 'America/Sao_Paulo' },
  { name: 'laravel paginate() in Tokyo (UTC+9)', args: ['--flavor', 'laravel'], userTz: 'America/Sao_Paulo' },
  {
    name: 'laravel simplePaginate() in Auckland',
    args: ['--flavor', 'laravel', '--paginator', 'simple', '--server-tz', 'Pacific/Auckland'],
    userTz: 'America/Sao_Paulo',
  },
  {
    // A limit no run reaches: every answer carries X-RateLimit-Limit/-Remaining of a one-minute window.
    name: 'laravel in Honolulu (UTC-10), per minute',
    args: ['--flavor', 'laravel', '--server-tz', 'Pacific/Honolulu', '--rate-limit', '100000/min'],
    userTz: 'Pacific/Pago_Pago',
  },
];

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export type FlatRecord = Record<string, string>;

/** A value as csv writes it: nothing for null, JSON text for arrays. */
const cell = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

function flatten(value: Record<string, unknown>, prefix = '', into: FlatRecord = {}): FlatRecord {
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) flatten(item as Record<string, unknown>, `${prefix}${key}.`, into);
    else into[`${prefix}${key}`] = cell(item);
  }
  return into;
}

/**
 * A plain (piped) table back into records: a list is a header row over
 * columns that start where their header does; one record is `LABEL  value`
 * lines. Keys are the headers in lower case, without a zone label.
 */
function readTable(text: string, one: boolean): FlatRecord[] {
  const lines = text.replace(/\n+$/, '').split('\n');
  const key = (header: string) => header.replace(/ \(.*\)$/, '').toLowerCase();
  if (one) {
    return [Object.fromEntries(lines.map((line) => {
      const [label = '', value = ''] = line.split(/ {2,}(.*)/);
      return [key(label), value.trim()];
    }))];
  }
  const [head = '', ...rows] = lines;
  const columns = [...head.matchAll(/\S+(?: \S+)*/g)].map((match) => ({ start: match.index, name: key(match[0]) }));
  return rows.map((row) => Object.fromEntries(columns.map(({ start, name }, index) =>
    [name, row.slice(start, columns[index + 1]?.start ?? row.length).trim()])));
}

/** stdout of one command in `format`, as flat records; `one` for a command that prints one record. */
export function readRecords(format: Format, stdout: string, one = false): FlatRecord[] {
  if (format === 'table') return readTable(stdout, one);
  if (format === 'csv') return parse(stdout, { columns: true }) as FlatRecord[];
  const values: unknown[] = format === 'json' ? [JSON.parse(stdout)].flat() : stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
  return values.map((value) => flatten(value as Record<string, unknown>));
}

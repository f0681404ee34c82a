/**
 * What every paged list shares (contract §3.2): the flags `--page`, `--per-page`,
 * `--all` (and `--limit` where the contract lists it), their validation, and
 * the table-mode footer `Page 1 of 288 (4,312 students). Use --page N or --all.`
 * Printing goes through the run kit (run-kit.ts).
 */
import type { Command } from 'commander';
import { eachBatch, type Batched } from '../../lib/batches.js';
import type { PageInfo, PageWalk } from '../../api/pagination/paginate.js';
import type { JsonRecord, View } from '../../output/index.js';
import type { Session } from '../../session/session.js';
import { parseInteger } from '../../lib/values.js';
import { printList } from '../../session/run-kit.js';

/** The raw flags as commander hands them over. */
export interface ListFlags {
  page?: string;
  perPage?: string;
  all?: boolean;
  limit?: string;
}

/** A validated PageWalk plus the page size to ask for. */
export interface ListOptions extends PageWalk {
  perPage?: number;
}

/** Page size asked for when following pages (`--all`, `--limit`) unless `--per-page` says otherwise. */
export const FOLLOW_PER_PAGE = 100;
/**
 * Pages in flight with `--all`, from the start: the pacer still spaces them
 * as the server's rate limit says, and the walk halves them when pages slow
 * down (api/paginate.ts). Starting at 4 and growing cost a 10,000-record list
 * 1.36x the time of an 8-wide walk at 20 ms latency (issue 28).
 */
export const LIST_CONCURRENCY = 8;

export function addListOptions(command: Command, options: { limit?: boolean } = {}): Command {
  command
    .option('--page <n>', 'page to show, from 1 (default 1)')
    .option('--per-page <n>', `records per page (default: the server's; ${FOLLOW_PER_PAGE} with --all)`)
    .option('--all', 'follow the pages to the end');
  if (options.limit) command.option('--limit <n>', 'stop after N records, fetching only the pages needed');
  return command;
}

/** Validates the list flags; a bad value is a usage error, before any request. */
export function listOptions(flags: ListFlags): ListOptions {
  const startPage = flags.page === undefined ? undefined : parseInteger(flags.page, '--page', { min: 1 });
  const limit = flags.limit === undefined ? undefined : parseInteger(flags.limit, '--limit', { min: 1 });
  const all = flags.all === true;
  let perPage = flags.perPage === undefined ? undefined : parseInteger(flags.perPage, '--per-page', { min: 1 });
  if (perPage === undefined && all) perPage = FOLLOW_PER_PAGE;
  else if (perPage === undefined && limit !== undefined) perPage = Math.min(limit, FOLLOW_PER_PAGE);
  return { startPage, perPage, all, limit, concurrency: LIST_CONCURRENCY, maxConcurrency: LIST_CONCURRENCY };
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * `Page 1 of 288 (4,312 students). Use --page N or --all.`; without a page
 * count (simplePaginate) `Page 1; there are more. Use --page 2 or --all.`;
 * undefined unless there are several pages.
 */
export function pageFooter(info: PageInfo, noun: string, shownPage = 1): string | undefined {
  const page = info.currentPage ?? shownPage;
  if (info.lastPage === undefined && info.hasMore) return `Page ${count(page)}; there are more ${noun}. Use --page ${count(page + 1)} or --all.`;
  if (info.lastPage === undefined || info.lastPage <= 1) return undefined;
  const total = info.total === undefined ? '' : ` (${count(info.total)} ${noun})`;
  return `Page ${count(info.currentPage ?? shownPage)} of ${count(info.lastPage)}${total}. Use --page N or --all.`;
}

/**
 * Prints a paged list: one page by default, with the footer in table mode
 * when there are more; `--all`/`--limit` follow the pages. `fetch` receives
 * the walk (with its `onInfo` hook) and returns the records, lazily. `whole`
 * receives every record when the run read the whole list.
 */
export async function printPagedList(
  session: Session,
  view: View,
  walk: ListOptions,
  fetch: (walk: ListOptions) => AsyncIterable<JsonRecord>,
  whole?: (records: JsonRecord[]) => void,
): Promise<number> {
  let info: PageInfo | undefined;
  const seen: JsonRecord[] = [];
  const records = fetch({ ...walk, onInfo: (first) => (info = first) });
  const printed = await printList(session, view, whole ? keeping(records, seen) : records);
  const onePage = !walk.all && walk.limit === undefined;
  if (onePage && info && session.globals.output === 'table') {
    const footer = pageFooter(info, view.noun, walk.startPage);
    if (footer) (await session.messages()).notice(footer);
  }
  // Every record of the list: all its pages, or a first page that was the only one.
  const wholeList = walk.limit === undefined && (walk.all || ((walk.startPage ?? 1) === 1 && info !== undefined && !info.hasMore && (info.lastPage ?? 1) <= 1));
  if (whole && wholeList) whole(seen);
  return printed;
}

/** The records as they pass, kept in `into` (for `whole`: lists of products and courses are short). */
function keeping(records: AsyncIterable<JsonRecord>, into: JsonRecord[]): Batched<JsonRecord> {
  return eachBatch(records, (batch) => {
    into.push(...batch);
    return batch;
  });
}

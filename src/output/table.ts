/**
 * `table`, the default: the view's columns for a support desk (or --fields),
 * headers in upper case. On a terminal: box borders, bold headers when colour
 * is on, fitted to the width by truncating the widest columns with `…`.
 * Piped: plain columns two spaces apart, nothing truncated (like gh). A list
 * is buffered: column widths depend on every row.
 */
import { drawBar } from './bar.js';
import { columnHeader, tableCell } from './cell.js';
import type { Format, Records, Write } from './format.js';
import type { Column, View } from './view.js';
import { batchesOf } from '../lib/batches.js';

export interface Layout {
  /** The destination is a terminal. */
  tty: boolean;
  /** Its width; the table is fitted to it when known and `tty`. */
  width: number | undefined;
  color: boolean;
  /** TERM=dumb: a terminal that may not draw Unicode, so the box is drawn with ASCII. */
  ascii?: boolean;
}

export interface TableOptions {
  fields?: readonly string[];
  header: boolean;
  layout: Layout;
  /**
   * Piped, a list whose records come slowly (`members each`): the header, then
   * each record as a plain line as it arrives, its cells two spaces apart,
   * not aligned with the others, so that a log shows each at once.
   */
  lineByLine?: boolean;
  /** Where `No <noun> found` goes (stderr). */
  notice(text: string): void;
}

/** The API's times (api-spec §2: `*_at`, a cancel, a payment): a --fields column the view lacks shows them in the user's zone too. */
const TIME_FIELD = /(^|\.)([a-z_]+_at|cancel_date|payment_last_date)$/;

export function tableFormat(write: Write, { fields, header, layout, notice, lineByLine = false }: TableOptions): Format {
  // --fields replaces the view's columns, keeping the table formatting of a column it names.
  const columnsOf = (view: View): Column[] => fields
    ? fields.map((path) => ({
      ...(TIME_FIELD.test(path) ? { format: 'datetime' as const } : {}), ...view.columns.find((column) => column.path === path), header: path, path,
    }))
    : view.columns;
  return {
    async one(record, view) {
      if (view.renderTable && !fields) return write(`${view.renderTable(record)}\n`);
      const rows = columnsOf(view).map((column) => [columnHeader(column), tableCell(column, record)]);
      await write(`${await renderGrid({ rows, labelled: true }, layout)}\n`);
    },
    async list(records, view) {
      const columns = columnsOf(view);
      if (lineByLine && !layout.tty) return listLineByLine(write, records, { columns, header, layout, notice: view.quietWhenEmpty ? undefined : () => notice(`No ${view.noun} found`) });
      const rows: string[][] = [];
      for await (const batch of batchesOf(records)) for (const record of batch) rows.push(columns.map((column) => tableCell(column, record)));
      if (rows.length === 0) {
        if (!view.quietWhenEmpty) notice(`No ${view.noun} found`);
        return 0;
      }
      const head = header ? columns.map(columnHeader) : undefined;
      await write(`${await renderGrid({
        head, rows, kinds: columns.map(columnKind), whole: columns.map(keptWhole),
        dropLate: columns.map((column) => column.dropLate ?? false), wrap: columns.map((column) => column.wrap ?? false),
        bars: columns.map((column) => column.bar?.max),
      }, layout)}\n`);
      return rows.length;
    },
  };
}

/** TableOptions.lineByLine: each line a one-row grid, as the piped table spaces its cells. */
async function listLineByLine(write: Write, records: Records, { columns, header, layout, notice }: {
  columns: Column[]; header: boolean; layout: Layout; notice?: () => void;
}): Promise<number> {
  const line = async (cells: string[]) => write(`${await renderGrid({ rows: [cells] }, layout)}\n`);
  let count = 0;
  for await (const batch of batchesOf(records)) {
    for (const record of batch) {
      if (count++ === 0 && header) await line(columns.map(columnHeader));
      await line(columns.map((column) => tableCell(column, record)));
    }
  }
  if (count === 0) notice?.();
  return count;
}

interface Grid {
  head?: string[];
  rows: string[][];
  /** The first column names the others (one record as a key/value list): styled like a header. */
  labelled?: boolean;
  /** Per column: what may happen to it on a narrow terminal. */
  kinds?: ColumnKind[];
  /** Per column: never cut (identifiers, and dates: `2024-0…` says nothing); it may still be dropped if low-value. */
  whole?: boolean[];
  /** Per column: dropped, if need be, after the low-value ones (`last`: after the others too). */
  dropLate?: Array<NonNullable<Column['dropLate']>>;
  /** Per column: its cells wrap when it is cut (Column.wrap). */
  wrap?: boolean[];
  /** Per column: the value that fills a bar, for a column drawn as bars (Column.bar); its cells hold the values. */
  bars?: Array<number | undefined>;
}

/**
 * On a narrow terminal: an identifier (id, e-mail, document, the STUDENT a
 * row names) or a date is never cut, since a cut one is useless; a low-value
 * column is dropped before titles and names are cut hard, then a column
 * its view lets go (`dropLate`); the others shrink.
 */
export type ColumnKind = NonNullable<Column['kind']>;

const IDENTIFIER = /(^|\.)(id|[a-z_]*_id|email|document|student|line)$/;
const LOW_VALUE = /(^|\.)(created_at|updated_at|birth|phone|user|profile|reason|payment_last_date|cancel_date)$/;

export function columnKind(column: Column): ColumnKind {
  if (column.kind) return column.kind;
  if (IDENTIFIER.test(column.path)) return 'identifier';
  return LOW_VALUE.test(column.path) ? 'low' : 'text';
}

// An id a view lets go first (kind low) is still never cut: dropped or whole.
const keptWhole = (column: Column) =>
  column.whole === true || columnKind(column) === 'identifier' || (column.kind === 'low' && IDENTIFIER.test(column.path)) || column.format === 'date' || column.format === 'datetime';

/** A title or name cut to fewer columns than this says little: drop low-value columns first. */
const READABLE_WIDTH = 12;

const MIN_WIDTH = 4;
/** cli-table3's box: one border before each column and after the last, one space of padding each side. */
const boxOverhead = (columnCount: number) => 3 * columnCount + 1;

/** The box in ASCII (`+`, `-`, `|`), for TERM=dumb. */
const ASCII_CHARS = {
  top: '-', 'top-mid': '+', 'top-left': '+', 'top-right': '+',
  bottom: '-', 'bottom-mid': '+', 'bottom-left': '+', 'bottom-right': '+',
  left: '|', 'left-mid': '+', mid: '-', 'mid-mid': '+', right: '|', 'right-mid': '+',
  middle: '|',
};

const PLAIN_CHARS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: '  ',
};

async function renderGrid(grid: Grid, { tty, width, color, ascii = false }: Layout): Promise<string> {
  const [{ default: Table }, { default: stringWidth }] = await Promise.all([import('cli-table3'), import('string-width')]);
  const fit = tty && width !== undefined;
  const { head = [], rows: cells, labelled = false, whole = [], kinds = [], wrap = [], bars = [] } = fit ? without(grid, droppedColumns(grid, width, stringWidth)) : grid;
  const emphasis = color ? await bold() : (text: string) => text;
  const natural = barWidths(naturalWidths([head, ...cells], stringWidth), bars, fit ? width : undefined);
  const floors = wordFloors([head, ...cells], wrap, stringWidth);
  const fitted = fit ? fitWidths(natural, width - boxOverhead(natural.length), whole, kinds.map((kind) => kind === 'name'), floors) : natural;
  const rows = bars.some((max) => max !== undefined) ? await drawBars(cells, bars, fitted, { color, ascii }) : cells;
  // A cut note or message wraps onto more lines of its cell: half a sentence says nothing.
  const wrapped = natural.map((wide, index) => wrap[index] === true && (fitted[index] ?? wide) < wide);
  const cell = (text: string, index: number) => (wrapped[index] ? { content: text, wordWrap: true } : text);
  const { strlen } = await import('cli-table3/src/utils.js');
  const text = renderTable(Table, strlen, {
    head: head.map(emphasis),
    // Only shrunk columns get a width (content plus padding), cut with '…'; the others are sized as cli-table3 would.
    colWidths: natural.map((wide, index) => {
      const fit = fitted[index] ?? wide;
      return fit < wide ? fit + 2 : null;
    }),
    rows: rows.map(([first = '', ...rest]) => (labelled ? [emphasis(first), ...rest] : [first, ...rest]).map(cell)),
  }, tableStyle({ tty, ascii }));
  // Piped, the last column is padded like the others; trailing blanks only get in the way of grep and diff.
  return tty ? text : text.split('\n').map((line) => line.trimEnd()).join('\n');
}

type TableClass = typeof import('cli-table3');
type TableCell = import('cli-table3').Cell;

export interface TableStyle extends Pick<import('cli-table3').TableConstructorOptions, 'chars' | 'truncate'> {
  style: { head: []; border: []; compact: true; 'padding-left'?: number; 'padding-right'?: number };
  /** Boxed: a top and a bottom border are drawn around the rows. */
  boxed: boolean;
}

/** How a table is drawn: boxed on a terminal (in ASCII for TERM=dumb), plain columns two spaces apart when piped. */
export function tableStyle({ tty, ascii = false }: Pick<Layout, 'tty' | 'ascii'>): TableStyle {
  if (!tty) return { style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 }, chars: PLAIN_CHARS, boxed: false };
  return { style: { head: [], border: [], compact: true }, boxed: true, ...(ascii ? { chars: ASCII_CHARS, truncate: '~' } : {}) };
}

/**
 * cli-table3 lays a table out in time quadratic in its rows (its layout
 * manager checks every cell against all the rows above it for row spans):
 * 10,000 students took 4 s. So the rows go through it CHUNK_ROWS at a time,
 * every chunk with the widths cli-table3 would give the whole table, and
 * the chunks are joined into exactly what one table prints: the header and
 * the rule under it come with the first chunk; boxed, each chunk's bottom
 * border but the last's and top border but the first's go. A compact table
 * without spans draws each row alone, so nothing else differs. Exact for
 * the tables renderGrid makes: no column or row spans, and cells that wrap
 * only in a column given its width (every column has one here).
 */
export const CHUNK_ROWS = 100;

export function renderTable(
  Table: TableClass,
  measure: (text: string) => number,
  { head, colWidths, rows }: { head: string[]; colWidths: Array<number | null>; rows: TableCell[][] },
  { boxed, ...options }: TableStyle,
): string {
  const padding = (options.style['padding-left'] ?? 1) + (options.style['padding-right'] ?? 1);
  // A column without a width: its widest cell, padding included (a missing cell counts as empty), never below 1.
  const widths = colWidths.map((width) => width ?? Math.max(1, padding));
  for (const row of [head, ...rows]) {
    row.forEach((cell, index) => {
      if (colWidths[index] === null || colWidths[index] === undefined) widths[index] = Math.max(widths[index] ?? Math.max(1, padding), contentWidth(cell, measure) + padding);
    });
  }
  const chunks: string[] = [];
  for (let start = 0; start === 0 || start < rows.length; start += CHUNK_ROWS) {
    const first = start === 0;
    const last = start + CHUNK_ROWS >= rows.length;
    // cli-table3 writes the widths it settles on into the array it is given: a fresh one each time.
    const table = new Table({ ...options, head: first ? head : [], colWidths: [...widths] });
    table.push(...rows.slice(start, start + CHUNK_ROWS));
    const lines = table.toString().split('\n');
    chunks.push(lines.slice(boxed && !first ? 1 : 0, boxed && !last ? -1 : undefined).join('\n'));
  }
  return chunks.join('\n');
}

/** A cell's width, measured by `measure` (cli-table3's own strlen: its widest line, colours left out). */
function contentWidth(cell: TableCell, measure: (text: string) => number): number {
  const text = cell !== null && typeof cell === 'object' ? cell.content : cell;
  return measure(String(text ?? ''));
}

/** A bar column takes the room the other columns leave on the terminal, within these bounds; piped, the widest. */
const BAR_WIDTH = { min: 10, max: 40 };

/** The widths with each bar column's own: what `terminal` columns leave it, or BAR_WIDTH.max off a terminal. */
function barWidths(natural: number[], bars: ReadonlyArray<number | undefined>, terminal: number | undefined): number[] {
  const count = bars.filter((max) => max !== undefined).length;
  if (count === 0) return natural;
  const others = total(natural.filter((_, index) => bars[index] === undefined));
  const room = terminal === undefined ? BAR_WIDTH.max : Math.floor((terminal - boxOverhead(natural.length) - others) / count);
  const bar = Math.min(BAR_WIDTH.max, Math.max(BAR_WIDTH.min, room));
  // Never narrower than the header (or a value, which is short: a percent).
  return natural.map((wide, index) => (bars[index] === undefined ? wide : Math.max(bar, wide)));
}

/** The bar columns' cells, which hold values, drawn as bars of their column's width (green with colour). */
async function drawBars(rows: string[][], bars: ReadonlyArray<number | undefined>, widths: readonly number[], { color, ascii }: { color: boolean; ascii: boolean }): Promise<string[][]> {
  const paint = color ? await green() : (text: string) => text;
  return rows.map((row) => row.map((cell, index) => {
    const max = bars[index];
    if (max === undefined) return cell;
    const bar = cell === '' ? '' : drawBar(Number(cell) / max, widths[index] ?? BAR_WIDTH.min, { ascii });
    return bar === '' ? '' : paint(bar);
  }));
}

async function green(): Promise<(text: string) => string> {
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return (text) => chalk.green(text);
}

async function bold(): Promise<(text: string) => string> {
  const { Chalk } = await import('chalk');
  // Our own decision (see color.ts), not chalk's detection from the process.
  const chalk = new Chalk({ level: 1 });
  return (text) => chalk.bold(text);
}

/** Widths in terminal columns, as cli-table3 measures them: CJK and most emoji take two. */
function naturalWidths(rows: string[][], measure: (text: string) => number): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, measure(cell));
    });
  }
  return widths;
}

const total = (widths: readonly number[]) => widths.reduce((sum, width) => sum + width, 0);

/** Which low-value columns go: from the right, while the rest would cut some text below READABLE_WIDTH. */
function droppedColumns(grid: Grid, width: number, measure: (text: string) => number): Set<number> {
  const kinds = grid.kinds ?? [];
  const whole = grid.whole ?? [];
  const natural = naturalWidths([grid.head ?? [], ...grid.rows], measure);
  const floors = wordFloors([grid.head ?? [], ...grid.rows], grid.wrap ?? [], measure);
  const dropped = new Set<number>();
  // Would the kept columns overflow with the text ones cut to `narrowest`?
  const overflows = (narrowest: number) => () => {
    const kept = natural.filter((_, index) => !dropped.has(index));
    const fixed = total(natural.filter((_, index) => !dropped.has(index) && whole[index]));
    // A wrapping note cut to `narrowest` would take a line per word: it counts twice that, and never less than its longest word.
    const flexible = natural.map((w, index) => Math.min(w, grid.wrap?.[index] ? Math.max(2 * narrowest, floors[index] ?? 0) : narrowest))
      .filter((_, index) => !dropped.has(index) && !whole[index]);
    return fixed + total(flexible) + boxOverhead(kept.length) > width;
  };
  const tiers = [[(index: number) => kinds[index] === 'low', overflows(READABLE_WIDTH)]] as Array<[(index: number) => boolean, () => boolean]>;
  for (const tier of [true, 'later'] as const) tiers.push([(index) => grid.dropLate?.[index] === tier, overflows(READABLE_WIDTH)]);
  tiers.push([(index) => grid.dropLate?.[index] === 'last', overflows(MIN_WIDTH)]);
  for (const [inTier, needs] of tiers) {
    for (let index = natural.length - 1; index >= 0 && needs(); index--) if (inTier(index)) dropped.add(index);
  }
  return dropped;
}

function without(grid: Grid, dropped: ReadonlySet<number>): Grid {
  if (dropped.size === 0) return grid;
  const keep = <T>(row: T[]) => row.filter((_, index) => !dropped.has(index));
  return {
    ...grid, head: grid.head && keep(grid.head), rows: grid.rows.map(keep),
    kinds: grid.kinds && keep(grid.kinds), whole: grid.whole && keep(grid.whole), dropLate: grid.dropLate && keep(grid.dropLate),
    wrap: grid.wrap && keep(grid.wrap), bars: grid.bars && keep(grid.bars),
  };
}

/**
 * Column widths that fit `budget` characters: `yields` columns (names) are
 * cut first, down to READABLE_WIDTH; then the widest columns are cut down
 * to a common width, narrow ones are left whole, `fixed` ones are never
 * cut. A column never goes below MIN_WIDTH; a terminal too narrow for that
 * then wraps.
 */
export function fitWidths(
  natural: readonly number[], budget: number, fixed: readonly boolean[] = [], yields: readonly boolean[] = [], floors: readonly number[] = [],
): number[] {
  if (total(natural) <= budget) return [...natural];
  const namesCut = capWidths(natural, budget, (index) => !yields[index] || fixed[index] === true, () => READABLE_WIDTH);
  if (total(namesCut) <= budget) return namesCut;
  const cut = (floor: (index: number) => number) => capWidths(namesCut, budget, (index) => fixed[index] === true, floor);
  // The floors hold when the budget allows them; else every column may go down to MIN_WIDTH, as before.
  const floored = cut((index) => Math.max(MIN_WIDTH, floors[index] ?? 0));
  return total(floored) <= budget ? floored : cut(() => MIN_WIDTH);
}

/** The columns not `kept` cut down to a common width, none lower than its `floor`, until the total fits `budget` if it can. */
function capWidths(natural: readonly number[], budget: number, kept: (index: number) => boolean, floor: (index: number) => number): number[] {
  let cap = Math.max(...natural);
  const lowest = Math.min(...natural.map((_, index) => floor(index)));
  const limit = (width: number, index: number) => Math.min(width, Math.max(cap, floor(index)));
  const capped = () => natural.map((width, index) => (kept(index) ? width : limit(width, index)));
  while (cap > lowest && total(capped()) > budget) cap--;
  // Hand the characters left over to the first capped columns, so the table fills the width exactly.
  let spare = Math.max(0, budget - total(capped()));
  return natural.map((width, index) => {
    if (kept(index)) return width;
    // A column held at its floor above the cap takes no spare character.
    if (width <= cap || floor(index) > cap || spare === 0) return limit(width, index);
    spare--;
    return cap + 1;
  });
}

/**
 * A wrapping column's narrowest width: its longest word, up to READABLE_WIDTH,
 * so that a note wraps between words rather than cutting them (a longer word,
 * an id or an e-mail, is cut all the same); 0 for the other columns.
 */
function wordFloors(rows: string[][], wrap: readonly boolean[], measure: (text: string) => number): number[] {
  const floors: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      if (wrap[index] !== true) return;
      for (const word of cell.split(/\s+/)) floors[index] = Math.max(floors[index] ?? 0, Math.min(READABLE_WIDTH, measure(word)));
    });
  }
  return floors;
}

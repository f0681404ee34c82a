import type { Listing } from '../lib/batches.js';
import type { JsonRecord, View } from './view.js';

/** A list to print: batched (a page at a time, src/lib/batches.ts), one record at a time, or whole. */
export type Records = Listing<JsonRecord>;

/** One output format (contract §3). Records arrive already checked against --fields. */
export interface Format {
  one(record: JsonRecord, view: View): Promise<void>;
  /** Streams where the format allows it; resolves to the number of records. */
  list(records: Records, view: View): Promise<number>;
  /** A workbook of several sheets, one with a chart: xlsx only. */
  book?(book: Book): Promise<void>;
}

/** Sheets held whole, for a workbook made to be looked at (report engaged-courses --chart). */
export interface Book {
  sheets: ReadonlyArray<{
    view: View;
    records: readonly JsonRecord[];
    /** The field whose numbers get a data bar each, from 0 to `max`. */
    dataBar?: { path: string; max: number };
  }>;
  /** A bar chart of one sheet (its index): a bar of `value` per `category`. */
  chart?: { sheet: number; title: string; category: string; value: string; max?: number };
}

/** Hands text on; returns a promise only when the caller must wait (a slow reader, a chunk going out), so a record costs no await otherwise. */
export type Write = (text: string) => Promise<void> | undefined;

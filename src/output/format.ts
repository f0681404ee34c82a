import type { JsonRecord, View } from './view.js';

export type Records = AsyncIterable<JsonRecord> | Iterable<JsonRecord>;

/** One output format (contract §3). Records arrive already checked against --fields. */
export interface Format {
  one(record: JsonRecord, view: View): Promise<void>;
  /** Streams where the format allows it; resolves to the number of records. */
  list(records: Records, view: View): Promise<number>;
}

export type Write = (text: string) => Promise<void>;

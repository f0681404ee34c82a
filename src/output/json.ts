/** `json` and `ndjson`: records as the API sent them, or only the --fields, nested as their paths say. */
import { pickFields } from './fields.js';
import type { Format, Write } from './format.js';
import type { JsonRecord } from './view.js';
import { batchesOf } from '../lib/batches.js';

const projection = (fields: readonly string[] | undefined) =>
  fields ? (record: JsonRecord) => pickFields(record, fields) : (record: JsonRecord) => record;

/**
 * A list is streamed as it arrives, yet the text is exactly
 * `JSON.stringify(array, null, pretty ? 2 : undefined)` plus a newline.
 */
export function jsonFormat(write: Write, { pretty, fields }: { pretty: boolean; fields?: readonly string[] }): Format {
  const project = projection(fields);
  const stringify = (record: JsonRecord) => JSON.stringify(project(record), null, pretty ? 2 : undefined);
  // Pretty JSON never holds a raw newline inside a string, so indenting line by line is safe.
  const element = pretty ? (record: JsonRecord) => `\n  ${stringify(record).replaceAll('\n', '\n  ')}` : stringify;
  return {
    async one(record) {
      await write(`${stringify(record)}\n`);
    },
    async list(records) {
      let count = 0;
      for await (const batch of batchesOf(records)) {
        for (const record of batch) {
          const full = write(`${count++ === 0 ? '[' : ','}${element(record)}`);
          if (full) await full;
        }
      }
      await write(count === 0 ? '[]\n' : `${pretty ? '\n' : ''}]\n`);
      return count;
    },
  };
}

/** One compact record per line, written as soon as it arrives; an empty list prints nothing. */
export function ndjsonFormat(write: Write, { fields }: { fields?: readonly string[] }): Format {
  const project = projection(fields);
  const line = (record: JsonRecord) => write(`${JSON.stringify(project(record))}\n`);
  return {
    async one(record) {
      await line(record);
    },
    async list(records) {
      let count = 0;
      for await (const batch of batchesOf(records)) {
        for (const record of batch) {
          const full = line(record);
          if (full) await full;
          count++;
        }
      }
      return count;
    },
  };
}

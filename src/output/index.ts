/**
 * The result of a command on stdout (or --out FILE), in the format of
 * contract §3. Commands hand over records and a View; they never format.
 */
import { resolve } from 'node:path';
import type { GlobalOptions, Io } from '../context.js';
import { colorEnabled } from './color.js';
import { csvFormat } from './csv.js';
import { openOutFile, stdoutDestination, type Destination } from './destination.js';
import { assertKnownFields } from './fields.js';
import type { Format, Records } from './format.js';
import { jsonFormat, ndjsonFormat } from './json.js';
import { createMessages } from './messages.js';
import { tableFormat } from './table.js';
import type { JsonRecord, View } from './view.js';

export type { Column, JsonRecord, View } from './view.js';
export type { Records } from './format.js';

export interface Output {
  /** One record. */
  one(record: JsonRecord, view: View): Promise<void>;
  /**
   * A list. json, ndjson and csv write each record as it arrives and wait
   * for a slow reader; table buffers, then prints. Resolves to the number of
   * records.
   */
  list(records: Records, view: View): Promise<number>;
  /** Completes the output: with --out, the file appears only now. */
  close(): Promise<void>;
  /** Instead of close() after a failure or Ctrl-C: with --out, no file is left behind. */
  abort(): Promise<void>;
}

/**
 * With --out, opens the temporary file at once (an unusable path is a
 * UsageError before any request is sent); the caller must then call close()
 * or abort().
 */
export async function createOutput(io: Io, opts: GlobalOptions): Promise<Output> {
  const destination = opts.out ? await openOutFile(resolve(io.cwd, opts.out)) : stdoutDestination(io.stdout);
  const format = formatFor(io, opts, destination);
  const { fields } = opts;
  return {
    async one(record, view) {
      if (fields) assertKnownFields(record, fields, view);
      await format.one(record, view);
    },
    list: (records, view) => format.list(fields ? checkFirst(records, fields, view) : records, view),
    close: () => destination.close(),
    abort: () => destination.abort(),
  };
}

function formatFor(io: Io, opts: GlobalOptions, destination: Destination): Format {
  const { write, isTTY } = destination;
  const { fields, header } = opts;
  switch (opts.output) {
    case 'json':
      return jsonFormat(write, { pretty: isTTY, fields });
    case 'ndjson':
      return ndjsonFormat(write, { fields });
    case 'csv':
      return csvFormat(write, { fields, header, raw: opts.csvRaw });
    case 'table':
      return tableFormat(write, {
        fields,
        header,
        // A file is never a terminal, even when FORCE_COLOR asks for colour.
        layout: { tty: isTTY, width: destination.columns, color: !opts.out && colorEnabled(isTTY, io.env, opts.color) },
        notice: createMessages(io, opts).notice,
      });
  }
}

async function* checkFirst(records: Records, fields: readonly string[], view: View): AsyncGenerator<JsonRecord> {
  let first = true;
  for await (const record of records) {
    if (first) assertKnownFields(record, fields, view);
    first = false;
    yield record;
  }
}

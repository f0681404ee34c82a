/**
 * The result of a command on stdout (or --out FILE), in the format of
 * contract §3. Commands hand over records and a View; they never format.
 */
import { resolve } from 'node:path';
import { StdoutClosedError } from '../lib/errors.js';
import { plural } from '../lib/values.js';
import { eachBatch, type Batched } from '../lib/batches.js';
import type { GlobalOptions, Io } from '../lib/io.js';
import { colorEnabled } from './color.js';
import { csvFormat } from './csv.js';
import { stdoutDestination, type Destination } from './destination.js';
import { assertKnownFields } from './fields.js';
import type { Book, Format, Records } from './format.js';
import { jsonFormat, ndjsonFormat } from './json.js';
import { createMessages } from './messages.js';
import { pagedDestination, pagerCommand } from './pager.js';
import { printableJson } from './sanitize.js';
import { tableFormat } from './table.js';
import { xlsxFormat } from './xlsx.js';
import type { JsonRecord, View } from './view.js';

export type { Column, JsonRecord, View } from './view.js';
export type { Book, Records } from './format.js';

export interface Output {
  /** One record. */
  one(record: JsonRecord, view: View): Promise<void>;
  /**
   * A list. json, ndjson, csv and xlsx write each record as it arrives and
   * wait for a slow reader; table buffers, then prints. Resolves to the number of
   * records.
   */
  list(records: Records, view: View): Promise<number>;
  /** A workbook of several sheets and a chart (Format.book): xlsx only, which the command checks before any request. */
  book(book: Book): Promise<void>;
  /** Completes the output: with --out, the file appears only now. */
  close(): Promise<void>;
  /** Instead of close() after a failure or Ctrl-C: with --out, no file is left behind. */
  abort(): Promise<void>;
}

export interface OutputOptions {
  /**
   * A list whose records come slowly, each worth keeping (`members each`'s
   * results): --out in csv or ndjson is written record by record, in place
   * from the first one, so a kill leaves the records written (out-file.ts
   * `growing`); json, xlsx and the table are still written whole at the end.
   * A table piped to stdout prints a plain line per record as it comes
   * (table.ts `lineByLine`).
   */
  growing?: boolean;
}

/** The formats a growing --out file is written in as records come: a line each, readable however far it got. */
const LINE_FORMATS: ReadonlySet<GlobalOptions['output']> = new Set(['csv', 'ndjson']);

/**
 * With --out, opens the temporary file at once (an unusable path is a
 * UsageError before any request is sent); the caller must then call close()
 * or abort().
 */
export async function createOutput(io: Io, opts: GlobalOptions, options: OutputOptions = {}): Promise<Output> {
  const growing = options.growing === true && LINE_FORMATS.has(opts.output);
  const destination = opts.out
    ? await (await import('./out-file.js')).openOutFile(resolve(io.cwd, opts.out), io, { growing })
    : terminalOrPipe(io, opts);
  const format = formatFor(io, opts, destination, options.growing === true && !opts.out);
  const { fields } = opts;
  /** Records written, for the line a file export ends with at a terminal. */
  let written: number | undefined;
  return {
    async one(record, view) {
      if (fields) assertKnownFields(record, fields, view);
      await format.one(record, view);
      written = (written ?? 0) + 1;
    },
    async list(records, view) {
      const counted = counting(fields ? checkFirst(records, fields, view) : records);
      try {
        const count = await format.list(counted, view);
        written = (written ?? 0) + count;
        return count;
      } catch (error) {
        // json, ndjson and csv stream to stdout as records arrive: say that what was printed is not the whole list.
        // (A table prints nothing until the end, and --out leaves no file behind.)
        if (!opts.out && opts.output !== 'table' && counted.count > 0) noteIncomplete(error, counted.count);
        throw error;
      }
    },
    async book(book) {
      if (!format.book) throw new Error(`a workbook of several sheets is written as xlsx only, not ${opts.output}`);
      await format.book(book);
    },
    async close() {
      await destination.close();
      // A file export says where it went, at a terminal (issue 37); scripts and --quiet hear nothing.
      if (opts.out && written !== undefined && io.stderr.isTTY && !opts.quiet) io.stderr.write(`Wrote ${plural(written, 'row')} to ${opts.out}\n`);
    },
    abort: () => destination.abort(),
  };
}

/** stdout; at a terminal, through the pager once the output is longer than the screen. */
function terminalOrPipe(io: Io, opts: GlobalOptions): Destination {
  const command = io.stdout.isTTY === true && io.startPager ? pagerCommand(io.env, opts.pager) : undefined;
  return command === undefined ? stdoutDestination(io.stdout) : pagedDestination(io, command);
}

/** `lineByLine`: a piped table prints each record as a plain line as it comes (OutputOptions.growing, to stdout). */
function formatFor(io: Io, opts: GlobalOptions, destination: Destination, lineByLine: boolean): Format {
  const { isTTY } = destination;
  const { fields, header } = opts;
  // Server text on a terminal is made harmless (contract §1.1), losslessly for JSON; a pipe or a file gets it as sent.
  const write = isTTY && (opts.output === 'json' || opts.output === 'ndjson') ? (text: string) => destination.write(printableJson(text)) : destination.write;
  switch (opts.output) {
    case 'json':
      return jsonFormat(write, { pretty: isTTY, fields });
    case 'ndjson':
      return ndjsonFormat(write, { fields });
    case 'csv':
      return csvFormat(write, { fields, header, raw: opts.csvRaw, dialect: opts.csvDialect, terminal: isTTY });
    case 'xlsx':
      return xlsxFormat(destination.writeBytes, { fields, header, warn: createMessages(io, opts).warn });
    case 'table':
      return tableFormat(write, {
        fields,
        header,
        // A file is never a terminal, even when FORCE_COLOR asks for colour.
        layout: { tty: isTTY, width: destination.columns, color: !opts.out && colorEnabled(isTTY, io.env, opts.color), ascii: io.env.TERM === 'dumb' },
        notice: createMessages(io, opts).notice,
        lineByLine,
      });
  }
}

/** The records, counting those handed to the format: it writes each batch before it asks for the next. */
function counting(records: Records): Batched<JsonRecord> & { count: number } {
  const counted = Object.assign(eachBatch(records, (batch) => {
    counted.count += batch.length;
    return batch;
  }), { count: 0 });
  return counted;
}

/** `error: … (output is incomplete: 100 records were written before the failure)`, in text and JSON alike. */
function noteIncomplete(error: unknown, count: number): void {
  // A reader that went away (… | head) took what it wanted: nothing to note.
  if (!(error instanceof Error) || error instanceof StdoutClosedError) return;
  error.message += ` (output is incomplete: ${plural(count, 'record was', 'records were')} written before the failure)`;
}

function checkFirst(records: Records, fields: readonly string[], view: View): Batched<JsonRecord> {
  let first = true;
  return eachBatch(records, (batch) => {
    const [record] = batch;
    if (first && record) {
      assertKnownFields(record, fields, view);
      first = false;
    }
    return batch;
  });
}

/**
 * Where the rendered result goes: stdout, or (`--out FILE`, out-file.ts) a
 * file written in place only when complete.
 */
import type { OutStream } from '../lib/io.js';
import { StdoutClosedError } from '../lib/errors.js';

export interface Destination {
  /** A promise, when there is one, resolves when the stream can take more: a slow reader (a pipe, a disk) bounds memory. */
  write(text: string): Promise<void> | undefined;
  /** The same for bytes (-o xlsx), after any text held back. */
  writeBytes(bytes: Uint8Array): Promise<void> | undefined;
  /** A person is reading: pretty JSON, colour and fitting to `columns` depend on it. */
  readonly isTTY: boolean;
  readonly columns: number | undefined;
  /** Completes the result (for a file: flush, then rename into place). */
  close(): Promise<void>;
  /** Gives up the result (for a file: remove the temporary file). */
  abort(): Promise<void>;
}

export function writer(stream: OutStream): (data: string | Uint8Array) => Promise<void> {
  return async (data) => {
    // Writing on would only produce output nobody reads (and, for a list, fetch pages for nobody).
    if (stream.closed) throw new StdoutClosedError();
    if (stream.write(data) || !stream.once) return;
    await new Promise<void>((resolve) => stream.once?.('drain', resolve));
    if (stream.closed) throw new StdoutClosedError();
  };
}

/** Text held back before a write to stdout, within one turn of the event loop. */
const STDOUT_CHUNK_CHARS = 16 * 1024;

/**
 * Records go out in chunks: what one turn of the event loop produced (a page
 * of a list) in one write, or 16K characters at a time, instead of a write
 * per record (8 % of the CPU time of a long list, and its peak memory). A
 * reader still sees each page as soon as it is rendered.
 */
export function stdoutDestination(stdout: OutStream): Destination {
  const write = writer(stdout);
  let pending = '';
  let endOfTurn: Promise<void> | undefined;
  let failure: unknown;
  const flush = async () => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    await write(chunk);
  };
  const settle = async () => {
    await endOfTurn;
    if (failure !== undefined) throw failure;
    await flush();
  };
  return {
    write(text) {
      if (failure !== undefined) return Promise.reject(failure);
      pending += text;
      if (pending.length >= STDOUT_CHUNK_CHARS) return flush();
      endOfTurn ??= new Promise<void>((resolve) => setImmediate(resolve))
        .then(flush)
        .catch((error: unknown) => void (failure = error))
        .finally(() => (endOfTurn = undefined));
      return undefined;
    },
    // Bytes come only from the xlsx writer, which holds back chunks of its own.
    writeBytes: (bytes) => settle().then(() => write(bytes)),
    isTTY: stdout.isTTY === true,
    columns: stdout.columns,
    close: settle,
    // What was rendered before the failure is printed all the same (the error then says the output is incomplete).
    abort: () => settle().catch(() => undefined),
  };
}

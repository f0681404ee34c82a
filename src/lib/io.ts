import type { Keychain } from './keychain.js';

/**
 * Everything a command may touch of the outside world. `bin/members.js` builds
 * one from the process; tests build one with captured streams.
 */
export interface OutStream {
  /** Bytes only for -o xlsx, which never goes to a terminal. */
  write(chunk: string | Uint8Array): boolean;
  /** Present on real streams; used to wait for a slow consumer (a pipe). */
  once?(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
  /** A terminal's height: the pager starts once the output is longer (output/pager.ts). */
  rows?: number;
  /** The reader went away (EPIPE): nothing written any more reaches anyone. */
  readonly closed?: boolean;
}

export interface Pager {
  stdin: OutStream & { end(): void };
  /** Resolves when the pager has ended (the person read to the end, or quit). */
  exited: Promise<void>;
}

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Registers a Ctrl-C handler (told `SIGINT`); returns a function that removes it. */
  onInterrupt(handler: (signal?: string) => void): () => void;
  /** SIGTERM and SIGHUP (a closed terminal, a dropped ssh session; the handler is told which): the run must stop cleanly, as on Ctrl-C. */
  onTerminate?(handler: (signal?: string) => void): () => void;
  /** This process's id: the change record marks the changes in flight with it (audit/intents.ts). */
  pid?: number;
  /** Whether a process of this machine is running (the writer of a change in flight, before another run checks it). */
  isRunning?(pid: number): boolean;
  /** Starts a pager (a shell command line) reading what is written to `stdin`; it writes to the terminal itself. */
  startPager?(command: string): Promise<Pager | undefined>;
  /**
   * The OS keychain, opened on first use (lib/keychain.ts); rejects with NoKeychainError when there is none.
   * Absent, there is none: tests run in-process never reach the user's real keychain.
   */
  keychain?(): Promise<Keychain>;
  /**
   * Starts the update check in a process of its own, which the run does not wait for (config/update-notice.ts).
   * Absent, there is no update notice: tests run in-process never read the user's cache nor ask a registry.
   */
  startUpdateCheck?(): void | Promise<void>;
  /**
   * Registers what must not outlive the process (an --out file's temporary):
   * run synchronously when it quits at once — a second signal, an exit —
   * where no promise would run. Returns a function that unregisters it.
   */
  atQuit?(cleanup: () => void): () => void;
  /** Called at each page a list streams to the output (the real process uses it to hold V8's young generation: lib/young-generation.ts). */
  onPage?(): void;
}

/** Global options of contract §2.1, after parsing and defaults. */
export interface GlobalOptions {
  profile?: string;
  output: OutputFormat;
  fields?: string[];
  header: boolean;
  color: boolean;
  csvRaw: boolean;
  csvDialect: CsvDialect;
  quiet: boolean;
  verbose: boolean;
  baseUrl?: string;
  timeoutMs: number;
  retries: number;
  yes: boolean;
  out?: string;
  /** False with --no-pager. */
  pager: boolean;
}

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'xlsx'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** csv for scripts (RFC 4180) or for spreadsheets opened with a double click (see output/csv.ts). */
export const CSV_DIALECTS = ['rfc4180', 'excel', 'excel-br'] as const;
export type CsvDialect = (typeof CSV_DIALECTS)[number];

/** How a run stopped by `signal` is told to quit at once: by Ctrl-C again after Ctrl-C, by a second signal after SIGTERM or SIGHUP. */
export function quitAtOnce(signal: string | undefined): string {
  return signal === undefined || signal === 'SIGINT' ? 'Ctrl-C again to quit at once' : `${signal} received; a second signal quits at once`;
}

/**
 * End-to-end harness: spawns the built binary, and `members sandbox` on an
 * ephemeral port, each with an isolated MEMBERS_CONFIG_DIR.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

export const BIN = fileURLToPath(new URL('../../bin/members.js', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** stdin's bytes (a workbook) or text. */
  input?: string | Buffer;
  /** Another install's bin/members.js (default: this checkout's). */
  bin?: string;
}

/**
 * The environment of a clean machine: no MEMBERS_* and no colour from the
 * parent, and MEMBERS_KEYCHAIN=off, so that no test reaches the developer's own
 * keychain (on macOS nothing else keeps it out). The keychain tests opt in by
 * giving MEMBERS_KEYCHAIN: undefined, which removes it, and a test Secret Service.
 * MEMBERS_NO_UPDATE_NOTIFIER=1 likewise: no run at a terminal asks npm's
 * registry (test/e2e/update-notice.test.ts opts in, with a registry of its own).
 */
export function baseEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', MEMBERS_KEYCHAIN: 'off', MEMBERS_NO_UPDATE_NOTIFIER: '1' };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function tempDir(prefix = 'members-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function run(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], { env: baseEnv(options.env ?? {}), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    // A command that exits before reading its stdin closes the pipe: the EPIPE is not the test's failure (its exit code is).
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

export interface SandboxProcess {
  url: string;
  apiToken: string;
  developerToken: string;
  platformToken: string;
  process: ChildProcess;
  /** Environment for `run` that points at this sandbox with its own config dir. */
  env: Record<string, string>;
  configDir: string;
  stop(): Promise<void>;
}

export async function startSandbox(args: string[] = []): Promise<SandboxProcess> {
  const configDir = tempDir();
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '-o', 'json', '--quiet', ...args], {
    env: baseEnv({ MEMBERS_CONFIG_DIR: configDir }), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const firstLine = await new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  const info = JSON.parse(firstLine) as { base_url: string; api_token: string; developer_token: string; platform_token: string };
  return {
    url: info.base_url,
    apiToken: info.api_token,
    developerToken: info.developer_token,
    platformToken: info.platform_token,
    process: child,
    configDir,
    env: {
      MEMBERS_CONFIG_DIR: configDir,
      MEMBERS_BASE_URL: info.base_url,
      MEMBERS_TOKEN: info.api_token,
      MEMBERS_DEVELOPER_TOKEN: info.developer_token,
      MEMBERS_PLATFORM_TOKEN: info.platform_token,
    },
    stop: () => new Promise<void>((resolveStop) => {
      if (child.exitCode !== null) return resolveStop();
      child.once('exit', () => {
        rmSync(configDir, { recursive: true, force: true });
        resolveStop();
      });
      child.kill('SIGTERM');
    }),
  };
}

/**
 * A `members sandbox` process (started with `args`) for the tests of the file
 * or describe block that calls this: started before them and stopped after
 * (`each`: around every test; `enabled: false`: not at all, where the tests
 * are skipped). The object returned reads the running sandbox, so that it can
 * be kept in a `const` at the top of the block.
 */
export function useSandboxProcess(args: string[] = [], options: { each?: boolean; enabled?: boolean } = {}): SandboxProcess {
  let current: SandboxProcess | undefined;
  const [start, stop] = options.each ? [beforeEach, afterEach] : [beforeAll, afterAll];
  start(async () => {
    if (options.enabled !== false) current = await startSandbox(args);
  });
  stop(async () => {
    await current?.stop();
    current = undefined;
  });
  const running = (): SandboxProcess => {
    if (!current) throw new Error('the sandbox runs only while the tests of the block that started it run');
    return current;
  };
  return {
    get url() { return running().url; },
    get apiToken() { return running().apiToken; },
    get developerToken() { return running().developerToken; },
    get platformToken() { return running().platformToken; },
    get process() { return running().process; },
    get env() { return running().env; },
    get configDir() { return running().configDir; },
    stop: () => running().stop(),
  };
}

/** Reads the sandbox's state through its own API, bypassing the CLI. */
export async function sandboxGet<T = unknown>(sandbox: SandboxProcess, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    headers: { authorization: `Bearer ${sandbox.apiToken}`, 'user-agent': 'members-e2e', accept: 'application/json' },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Every record of a paginated list of the sandbox (a length-aware one: `meta.last_page`), read through its own API. */
export async function allPages<T>(sandbox: SandboxProcess, path: string): Promise<T[]> {
  const records: T[] = [];
  for (let page = 1; ; page++) {
    const body = (await sandboxGet<{ data: T[]; meta: { last_page: number } }>(sandbox, `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`)).body;
    records.push(...body.data);
    if (page >= body.meta.last_page) return records;
  }
}

/** Whether `runInTerminal` can work here: util-linux `script` (Linux; Debian's bsdutils is essential). */
export const HAS_SCRIPT = process.platform === 'linux' && spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** A person at a terminal: the binary on a pseudo-terminal, its screen so far, and keys to type. */
export interface TerminalSession {
  /** Everything written to the terminal so far (stdout and stderr, escape sequences included). */
  output(): string;
  /** Resolves once the screen shows `pattern` (a prompt, a result). */
  waitFor(pattern: RegExp): Promise<void>;
  type(keys: string): void;
  exited: Promise<number | null>;
}

/** A pseudo-terminal's environment and size (100 columns, 40 rows unless told; rows 0: a size unknown). */
export interface TerminalOptions {
  env?: Record<string, string | undefined>;
  columns?: number;
  rows?: number;
}

/**
 * Runs the binary with stdin, stdout and stderr on a pseudo-terminal of
 * `columns` columns (util-linux `script`). `pipeStdoutTo` runs it as
 * `members … | COMMAND`, so that only stdout is not a terminal.
 */
export function terminalSession(args: string[], options: TerminalOptions & { pipeStdoutTo?: string } = {}): TerminalSession {
  const pipe = options.pipeStdoutTo ? ` | ${options.pipeStdoutTo}` : '';
  return shellInTerminal(`${pipe ? '' : 'exec '}${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}${pipe}`, options);
}

/** `terminalSession` for any shell command, e.g. an interactive bash. */
export function shellInTerminal(command: string, options: TerminalOptions = {}): TerminalSession {
  const child = spawn('script', ['-qefc', `stty cols ${options.columns ?? 100} rows ${options.rows ?? 40}; ${command}`, '/dev/null'], { env: baseEnv(options.env ?? {}), stdio: 'pipe' });
  let output = '';
  const waiting = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const check of [...waiting]) check();
  });
  const exited = new Promise<number | null>((resolveExit, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      for (const check of [...waiting]) check();
      resolveExit(code);
    });
  });
  return {
    output: () => output,
    waitFor: (pattern) => new Promise((resolveWait, reject) => {
      const check = () => {
        if (pattern.test(output)) {
          waiting.delete(check);
          resolveWait();
        } else if (child.exitCode !== null) {
          waiting.delete(check);
          reject(new Error(`exited with ${child.exitCode} before showing ${pattern}:\n${output}`));
        }
      };
      waiting.add(check);
      check();
    }),
    type: (keys) => void child.stdin.write(keys),
    exited,
  };
}

/** `terminalSession` to its end, typing nothing. */
export async function runInTerminal(args: string[], options: TerminalOptions & { pipeStdoutTo?: string } = {}): Promise<{ code: number | null; output: string }> {
  const session = terminalSession(args, options);
  const code = await session.exited;
  return { code, output: session.output() };
}

export const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * `members mcp`'s first answers, given before the program loads (issue 39:
 * the first tools/list within 1.5× `members --version`). A client starts the
 * server, sends initialize, then tools/list, and shows the tools; both
 * answers are constants of the build (the server's name, version,
 * capabilities and instructions, the tools' listing), while the program
 * (commander, the session, the SDK) takes ~60 ms to load on a 2-core machine.
 *
 * bin/members.js runs this bundle alone (dist/mcp-front.cjs) for
 * `members mcp` with flags it knows, on stdin that is not a terminal. It
 * answers initialize, ping and tools/list as the SDK would, byte for byte
 * (test/unit/mcp/front.test.ts), and hands over to the program at the first
 * message it does not answer, right after tools/list, or when stdin ends.
 * The program's SDK then reads the messages that set its state (initialize,
 * under an id of the front's, and notifications/initialized) again, followed
 * by the rest, and its answer to initialize is dropped: it holds the client's capabilities and name exactly
 * as if it had answered them itself. Anything the front is not sure the SDK
 * would answer the same (a newer protocol revision, `_meta`, icons, a
 * paginated list) goes to the SDK.
 */
import type { Socket } from 'node:net';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { ANSWERED_CAPABILITIES, INSTRUCTIONS, SERVER_NAME, stoppedBy } from '../commands/mcp/handshake.js';
import { listingFor } from '../commands/mcp/listing.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../commands/mcp/protocol-versions.js';
import { LISTING } from '../commands/mcp/tools/listing.js';
import type { Io, OutStream } from '../lib/io.js';

/** What the answers depend on, from the command line. */
export interface FrontOptions {
  allowWrites: boolean;
}

/** What the front read and said, for the program that takes over. */
export interface Handshake {
  /** What the program's SDK reads first: the messages that set its state (initialize under an id of the front's), then the ones the front did not answer. */
  replay: string;
  /** stdin ended (or failed) before the hand-over: the replay is all there is. */
  ended: boolean;
  /** The SDK's answers to requests of the replay the front answered, by their id as JSON: they are dropped. */
  answers: Map<string, string>;
}

const FLAGS = new Set(['--allow-writes', '--show-personal-data']);
const WITH_VALUE = new Set(['--max-rows', '--profile', '-p']);
/** The id under which the SDK reads the client's initialize again: one of the front's, which no client would choose. */
export const REPLAYED_ID = 'members-mcp-front:initialize';
/** A line longer than this without its end goes to the SDK, which has its own limit. */
const LONGEST_LINE = 1 << 20;

/**
 * The options of `mcp` followed by flags the front knows, each valid, or
 * undefined (the program then runs it, with its errors and help).
 */
export function frontOptions(argv: readonly string[]): FrontOptions | undefined {
  if (argv[0] !== 'mcp') return undefined;
  let allowWrites = false;
  for (let at = 1; at < argv.length; at++) {
    const [flag, inline] = splitFlag(argv[at] as string);
    if (FLAGS.has(flag) && inline === undefined) {
      allowWrites ||= flag === '--allow-writes';
      continue;
    }
    if (!WITH_VALUE.has(flag)) return undefined;
    const value = inline ?? argv[++at];
    if (value === undefined || !validValue(flag, value)) return undefined;
  }
  return { allowWrites };
}

/** `--flag=value` as commander reads it: a long flag and its value; anything else as it is. */
function splitFlag(arg: string): [string, string | undefined] {
  const inline = /^(--[^=]+)=(.*)$/s.exec(arg);
  return inline ? [inline[1] as string, inline[2]] : [arg, undefined];
}

function validValue(flag: string, value: string): boolean {
  if (flag === '--max-rows') return /^[1-9]\d{0,3}$/.test(value) && Number(value) <= 1000;
  return value !== '' && !value.startsWith('-');
}

/** A JSON-RPC message as the front reads it: only the keys a request or a notification may have. */
interface Message {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isEmpty = (params: unknown) => params === undefined || (isRecord(params) && Object.keys(params).length === 0);
const onlyKeys = (record: Record<string, unknown>, keys: readonly string[]) => Object.keys(record).every((key) => keys.includes(key));
const isId = (id: unknown) => typeof id === 'string' || Number.isSafeInteger(id);

/** A line of the client as a message the front may answer, or undefined. */
function parsed(line: string): Message | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(message) || message.jsonrpc !== '2.0' || !onlyKeys(message, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  if ('id' in message && !isId(message.id)) return undefined;
  return message;
}

/** What a value must be: an object (any JSON inside), a boolean, an object of objects, or an object whose named keys, if there, are as named (others free). */
type Shape = 'object' | 'boolean' | 'objects' | { readonly [key: string]: Shape };

/** What the SDK's ClientCapabilitiesSchema requires inside the capabilities it knows: it refuses an initialize whose capabilities do not fit. */
const CAPABILITIES: Shape = {
  experimental: 'objects',
  extensions: 'objects',
  sampling: { context: 'object', tools: 'object' },
  elicitation: { form: { applyDefaults: 'boolean' }, url: 'object' },
  roots: { listChanged: 'boolean' },
  tasks: { list: 'object', cancel: 'object', requests: { sampling: { createMessage: 'object' }, elicitation: { create: 'object' } } },
};

function fits(value: unknown, shape: Shape): boolean {
  if (shape === 'boolean') return typeof value === 'boolean';
  if (!isRecord(value)) return false;
  if (shape === 'objects') return Object.values(value).every(isRecord);
  return shape === 'object' || Object.entries(shape).every(([key, inner]) => !Object.hasOwn(value, key) || fits(value[key], inner));
}

/** An initialize whose answer the front knows: a revision of the initialize era, and nothing the SDK might refuse. */
function initializeVersion(params: unknown): string | undefined {
  if (!isRecord(params) || !onlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo'])) return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  // The revisions of the initialize era the SDK answers as asked (the modern era's are not in the list: server/discover).
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion as string)) return undefined;
  if (!isRecord(capabilities) || !Object.values(capabilities).every(isRecord) || !fits(capabilities, CAPABILITIES)) return undefined;
  if (!isRecord(clientInfo) || !onlyKeys(clientInfo, ['name', 'version', 'title', 'description', 'websiteUrl'])) return undefined;
  if (!Object.values(clientInfo).every((value) => typeof value === 'string') || clientInfo.name === undefined || clientInfo.version === undefined) return undefined;
  return protocolVersion as string;
}

/** A result as the SDK writes it (its Protocol, then its stdio transport). */
const response = (id: unknown, result: string) => `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`;

const initializeResult = (protocolVersion: string) => JSON.stringify({
  protocolVersion, capabilities: ANSWERED_CAPABILITIES, serverInfo: { name: SERVER_NAME, version: __MEMBERS_VERSION__ }, instructions: INSTRUCTIONS,
});

/**
 * Answers what it can of the client's first messages on `stdin` with `write`,
 * then calls `handOver` once, on a later turn, with what the program needs.
 */
export function answerHandshake(stdin: Readable, write: (text: string) => void, options: FrontOptions, handOver: (handshake: Handshake) => void): void {
  let pending = '';
  let replay = '';
  const answers = new Map<string, string>();
  let initialized = false;
  let done = false;
  // Called once: its caller stops reading (the loop's `done`, the listeners removed).
  const finish = (ended: boolean) => {
    done = true;
    stdin.off('data', read).off('end', atEnd).off('error', atEnd);
    // Paused, a pipe still holds the process open: a program that fails before reading it (a bad profile) must exit.
    stdin.pause();
    (stdin as Partial<Pick<Socket, 'unref'>>).unref?.();
    setImmediate(() => handOver({ replay: replay + pending, ended, answers }));
  };
  const atEnd = () => finish(true);
  /** Whether the front answered `line` (or kept it for the replay): false hands it, and all after it, to the program. */
  const take = (line: string): boolean => {
    const message = parsed(line);
    if (message === undefined) return false;
    const { id, method, params } = message;
    if (method === 'initialize' && id !== undefined && !initialized) {
      const version = initializeVersion(params);
      if (version === undefined) return false;
      write(response(id, initializeResult(version)));
      // The SDK reads it again under an id of the front's: its answer, dropped, is never taken for the answer to a later
      // request with the same id (JSON-RPC allows it once answered; MCP does not, but the SDK answers it), given first.
      replay += `${JSON.stringify({ ...message, id: REPLAYED_ID })}\n`;
      answers.set(JSON.stringify(REPLAYED_ID), response(REPLAYED_ID, initializeResult(version)));
      initialized = true;
      return true;
    }
    if (!initialized || !isEmpty(params)) return false;
    if (method === 'notifications/initialized' && id === undefined) {
      replay += line;
      return true;
    }
    if (method === 'ping' && id !== undefined) {
      write(response(id, '{}'));
      return true;
    }
    if (method === 'tools/list' && id !== undefined) {
      write(response(id, JSON.stringify({ tools: listingFor(LISTING, options.allowWrites) })));
      // The tools are listed: the program loads now, before the client's first call.
      finish(false);
      return true;
    }
    return false;
  };
  const read = (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0 && !done; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end + 1);
      pending = pending.slice(end + 1);
      if (!take(line)) {
        replay += line;
        finish(false);
      }
    }
    if (!done && pending.length > LONGEST_LINE) finish(false);
  };
  stdin.setEncoding('utf8');
  stdin.on('data', read).on('end', atEnd).on('error', atEnd);
}

/**
 * The front's `write` on the process's stdout. A client that closed its end
 * (EPIPE) is not an error, as for the program (process-io.ts): the answers
 * are lost, and the program, once it takes over, stops when stdin ends.
 */
export function writerTo(stdout: Writable): (text: string) => void {
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
  });
  return (text) => void stdout.write(text);
}

/** What the run prints when a signal ends it while the front waits for the client, as the program's error (exit 130). */
export const stopped = (signal: string) => `error: ${stoppedBy(signal)}\n`;

/**
 * The process's Io for the program that takes over: its stdin reads the
 * replay, then the rest of `stdin` (from the program's first read: one that
 * fails before, on a bad profile, leaves stdin alone and exits); its stdout
 * drops the SDK's answers the front already gave, and says on stderr if one
 * differs (a bug: the client holds the front's).
 */
export function handedOver<T extends Io>(io: T, handshake: Handshake, stdin: Readable): T {
  let replayed: PassThrough | undefined;
  const input = () => {
    if (replayed === undefined) {
      replayed = new PassThrough();
      if (handshake.ended) replayed.end(handshake.replay);
      else {
        replayed.write(handshake.replay);
        (stdin as Partial<Pick<Socket, 'ref'>>).ref?.();
        stdin.pipe(replayed);
        // The SDK pauses what it reads when it closes (a signal, the client still connected): stdin stops too, as
        // unwrapped, or it would hold the process open until the client closes it.
        replayed.once('pause', () => stdin.unpipe(replayed));
      }
    }
    return replayed;
  };
  const stdout = droppingAnswers(io.stdout, handshake.answers, (ours, theirs) => {
    io.stderr.write(`warning: members mcp answered the client before its program loaded, and the SDK then answered otherwise; please report it.\n  sent:    ${ours.trimEnd()}\n  the SDK: ${theirs.trimEnd()}\n`);
  });
  return Object.create(io, { stdin: { get: input }, stdout: { value: stdout } }) as T;
}

/** `stdout`, less the first answer to each of `answers`' ids. */
function droppingAnswers(stdout: OutStream, answers: Map<string, string>, differs: (ours: string, theirs: string) => void): OutStream {
  let pending = '';
  const write = (chunk: string | Uint8Array): boolean => {
    if (answers.size === 0) return stdout.write(chunk);
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    let out = '';
    for (let end = pending.indexOf('\n'); end >= 0 && answers.size > 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end + 1);
      pending = pending.slice(end + 1);
      const id = answerId(line) ?? '';
      const ours = answers.get(id);
      if (ours === undefined) {
        out += line;
        continue;
      }
      answers.delete(id);
      if (line !== ours) differs(ours, line);
    }
    if (answers.size === 0) {
      out += pending;
      pending = '';
    }
    return out === '' || stdout.write(out);
  };
  return Object.create(stdout, { write: { value: write } }) as OutStream;
}

/** The id (as JSON) of an answer of the server's, or undefined for a request or a notification of its own. */
function answerId(line: string): string | undefined {
  try {
    const message = JSON.parse(line) as Message & { result?: unknown; error?: unknown };
    return message.method === undefined && ('result' in message || 'error' in message) ? JSON.stringify(message.id) : undefined;
  } catch {
    return undefined;
  }
}

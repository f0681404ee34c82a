/**
 * The MCP server over stdio (issue 39): the tools of tools/*.ts registered
 * on the official SDK (loaded from its own bundle, sdk.ts), each call shaped
 * by answer.ts, each change confirmed by the person through the client
 * (confirm.ts) and made one at a time. They are registered by their listing
 * (listing.ts), and loaded, with their zod schemas, at the first tools/call.
 */
import { Writable, type Readable } from 'node:stream';
import { CliError } from '../../lib/errors.js';
import type { Io } from '../../lib/io.js';
import type { Session } from '../../session/session.js';
import { shapeAnswer, shapeError, type ShapedResult } from './answer.js';
import { confirmer } from './confirm.js';
import { INSTRUCTIONS, SERVER_NAME } from './handshake.js';
import { McpServer, StdioServerTransport, type ServerContext, type StandardSchemaV1, type StandardSchemaWithJSON } from './sdk.js';
import type { ListedTool } from './listing.js';
import type { McpSettings, Tool, ToolContext } from './tool.js';

export interface Served {
  /** Resolves when the client ends the connection (stdin closes). */
  closed: Promise<void>;
  /** Closes the connection (wait for `idle()` first: a change in flight is answered and recorded). */
  close(): Promise<void>;
}

/** The tools a server lists, and how it loads their work (once, at the first tools/call). */
export interface ServedTools {
  listing: readonly ListedTool[];
  load(): Promise<readonly Tool[]>;
}

export function createServer(session: Session, settings: McpSettings, tools: ServedTools): { mcp: McpServer; idle(): Promise<unknown> } {
  const server = new McpServer({ name: SERVER_NAME, version: session.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  let loaded: Promise<ReadonlyMap<string, Tool>> | undefined;
  const named = async (name: string) => {
    loaded ??= tools.load().then((all) => new Map(all.map((spec) => [spec.name, spec])));
    return (await loaded).get(name) as Tool;
  };
  let changing: Promise<unknown> = Promise.resolve();
  for (const entry of tools.listing) {
    server.registerTool(entry.name, {
      title: entry.title, description: entry.description, inputSchema: lazyInput(entry, () => named(entry.name)), annotations: entry.annotations,
    }, async (args: Record<string, unknown>, ctx: ServerContext): Promise<ShapedResult> => {
      const spec = await named(entry.name);
      const context = toolContext(session, settings, server, ctx);
      const work = () => spec.run(args, context).then((answer) => shapeAnswer(answer, settings), (error: unknown) => failure(error, settings));
      if (entry.annotations.readOnlyHint) return work();
      // One change at a time, each with its own question to the person, inside the session's signal handling.
      const turn = changing.then(() => session.guarded(work));
      changing = turn.catch(() => undefined);
      return turn.catch((error: unknown) => failure(error, settings));
    });
  }
  return { mcp: server, idle: () => changing };
}

/**
 * A tool's input schema as the SDK reads it (a Standard Schema): tools/list gets the JSON Schema the build
 * computed; tools/call's arguments are validated by the tool's zod schema, loaded then.
 */
function lazyInput(entry: ListedTool, load: () => Promise<Tool>): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'members',
      validate: async (value: unknown) => (await load()).input['~standard'].validate(value) as StandardSchemaV1.Result<Record<string, unknown>>,
      jsonSchema: { input: () => entry.inputSchema, output: () => entry.inputSchema },
    },
  };
}

function toolContext(session: Session, settings: McpSettings, server: McpServer, ctx: ServerContext): ToolContext {
  const { confirm, showPerson } = confirmer(server, ctx, settings);
  return {
    session,
    settings,
    api: () => session.api(),
    confirm,
    showPerson,
    client: () => {
      const client = server.server.getClientVersion();
      return client ? `${client.name} ${client.version}`.trim() : 'unknown client';
    },
  };
}

/** A tool's failure as the assistant reads it; a bug is one too, with what the person can do. */
function failure(error: unknown, settings: McpSettings): ShapedResult {
  if (error instanceof CliError) return shapeError(error.message, settings);
  return shapeError(`unexpected error: ${(error as Error)?.message ?? String(error)}; run the same with the members command, and report it if it fails there too`, settings);
}

/** Serves `server` on the process's stdin and stdout until the client closes them. */
export async function serve(server: McpServer, io: Io): Promise<Served> {
  // The SDK writes to a stream; the run's stdout is the Io's, which says when a pipe is full.
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (io.stdout.write(chunk.toString('utf8')) || !io.stdout.once) done();
      else io.stdout.once('drain', () => done());
    },
  });
  const transport = new StdioServerTransport(io.stdin as Readable, stdout);
  // Listened for before the connection starts: a client may close stdin at once.
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}

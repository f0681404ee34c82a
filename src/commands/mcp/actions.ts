/** `members mcp`: the assistant's server, or (--check) the tools it would serve. Flags and help live in index.ts. */
import { InterruptedError } from '../../lib/errors.js';
import { parseInteger } from '../../lib/values.js';
import type { Session } from '../../session/session.js';
import { withOutput } from '../../session/run-kit.js';
import { stoppedBy } from './handshake.js';
import { changes, listingFor } from './listing.js';
import type { McpSettings, Tool } from './tool.js';
import { LISTING } from './tools/listing.js';
import { MCP_TOOLS_VIEW } from './view.js';

export interface McpFlags {
  allowWrites?: boolean;
  maxRows: string;
  showPersonalData?: boolean;
  check?: boolean;
}

/** Validates the flags before anything starts (exit 2). */
export function mcpSettings(flags: McpFlags): McpSettings {
  return {
    allowWrites: flags.allowWrites === true,
    maxRows: parseInteger(flags.maxRows, '--max-rows', { min: 1, max: 1000 }),
    showPersonalData: flags.showPersonalData === true,
  };
}

/**
 * The tools' work, loaded at the first tools/call: read-only unless --allow-writes (without it the
 * change record and its crypto, ~20 ms, are never loaded).
 */
export async function toolsFor(settings: McpSettings): Promise<readonly Tool[]> {
  const { READ_TOOLS } = await import('./tools/read.js');
  return settings.allowWrites ? [...READ_TOOLS, ...(await import('./tools/write.js')).WRITE_TOOLS] : READ_TOOLS;
}

export async function mcp(session: Session, flags: McpFlags): Promise<void> {
  const settings = mcpSettings(flags);
  // What tools/list answers, computed by the build: the tools themselves (zod, the API client, the domain) load at the first call.
  const listing = listingFor(LISTING, settings.allowWrites);
  // The profile must reach its server: a base URL and a token, checked before a client connects (exit 2, exit 3).
  // The HTTP client is made at the first tool that reads (which checks interrupted changes first, as every command does).
  await session.connectable();
  const { createServer, serve } = await import('./server.js');
  const server = createServer(session, settings, { listing, load: () => toolsFor(settings) });
  if (flags.check) {
    await withOutput(session, (output) => output.list(listing.map((spec) => ({ name: spec.name, title: spec.title, changes: changes(spec) ? 'yes, asks the person' : 'no' })), MCP_TOOLS_VIEW));
    (await session.messages()).notice(`members mcp is ready: ${listing.length} tools, ${settings.allowWrites ? 'changes allowed, each confirmed by the person' : 'read-only'}, `
      + `personal data ${settings.showPersonalData ? 'SHOWN' : 'masked'}, at most ${settings.maxRows} rows an answer`);
    return;
  }
  const served = await serve(server.mcp, session.io);
  const { io } = session;
  let removers: Array<(() => void) | undefined> = [];
  const signalled = new Promise<string>((resolve) => {
    removers = [io.onInterrupt((signal) => resolve(signal ?? 'SIGINT')), io.onTerminate?.((signal) => resolve(signal ?? 'SIGTERM'))];
  });
  const ended = await Promise.race([served.closed.then(() => undefined), signalled]);
  for (const remove of removers) remove?.();
  // A change in flight is answered and recorded before the server closes.
  await server.idle();
  await served.close();
  if (ended !== undefined) throw new InterruptedError(stoppedBy(ended));
}

/**
 * tools/list is answered from the listing the build computes (src/commands/mcp/listing.ts), without the
 * tools' zod schemas: its answer must stay byte for byte the one the SDK derives from those schemas, with
 * and without --allow-writes. The listing here went through JSON, as the build's constant does.
 */
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { listingFor } from '../../../src/commands/mcp/listing.js';
import { mcpSettings, toolsFor } from '../../../src/commands/mcp/actions.js';
import { createServer } from '../../../src/commands/mcp/server.js';
import { LISTING } from '../../../src/commands/mcp/tools/listing.js';
import type { Session } from '../../../src/session/session.js';

const session = { version: '1.2.3' } as unknown as Session;

/** The server's raw tools/list result, as a client reads it off the wire. */
async function toolsListOf(server: McpServer): Promise<string> {
  const [client, end] = InMemoryTransport.createLinkedPair();
  const answers = new Map<number, unknown>();
  const answered = (id: number) => new Promise<unknown>((resolve) => {
    client.onmessage = (message) => {
      const { id: got, result } = message as { id?: number; result?: unknown };
      if (got !== undefined) answers.set(got, result);
      if (answers.has(id)) resolve(answers.get(id));
    };
  });
  await server.connect(end);
  await client.start();
  const initialized = answered(1);
  await client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
  await initialized;
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const listed = answered(2);
  await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const result = JSON.stringify(await listed);
  await server.close();
  return result;
}

describe('the precomputed tools/list', () => {
  for (const allowWrites of [false, true]) {
    it(`is the SDK's answer from the zod schemas, ${allowWrites ? 'with' : 'without'} --allow-writes`, async () => {
      const settings = mcpSettings({ maxRows: '50', allowWrites });
      const fromZod = new McpServer({ name: 'members', version: '1.2.3' }, { capabilities: { tools: {} } });
      const tools = await toolsFor(settings);
      for (const spec of tools) {
        fromZod.registerTool(spec.name, { title: spec.title, description: spec.description, inputSchema: spec.input, annotations: spec.annotations }, () => ({ content: [] }));
      }
      const built = JSON.parse(JSON.stringify(LISTING)) as typeof LISTING;
      const served = createServer(session, settings, { listing: listingFor(built, allowWrites), load: () => Promise.resolve(tools) });
      const expected = await toolsListOf(fromZod);
      expect(JSON.parse(expected).tools.map((tool: { name: string }) => tool.name)).toHaveLength(allowWrites ? 14 : 8);
      expect(await toolsListOf(served.mcp)).toBe(expected);
    });
  }
});

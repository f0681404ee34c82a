/**
 * What tools/list says of each tool, apart from the tools themselves: the
 * build computes it once (scripts/build/mcp-tool-listing.mjs, from
 * tools/listing.ts), so `members mcp` answers tools/list without loading the
 * tools, their zod schemas, the API client or the domain; they load at the
 * first tools/call (server.ts). test/unit/mcp/listing.test.ts keeps the
 * answer equal to the one the SDK derives from the zod schemas.
 */
import type { Annotations, Tool } from './tool.js';

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  /** The input schema's JSON Schema as the SDK lists it: zod's (`~standard.jsonSchema.input`, draft 2020-12), `type` first. */
  inputSchema: Record<string, unknown>;
  annotations: Annotations;
}

/** The JSON Schema draft the SDK asks zod for (its JSON_SCHEMA_CONVERSION_TARGET). */
const TARGET = 'draft-2020-12';

export function listed(spec: Tool): ListedTool {
  const { name, title, description, annotations } = spec;
  return { name, title, description, inputSchema: { type: 'object', ...spec.input['~standard'].jsonSchema.input({ target: TARGET }) }, annotations };
}

/** The tools that change something are those not read-only. */
export const changes = (candidate: Pick<Tool, 'annotations'>) => !candidate.annotations.readOnlyHint;

/** Read-only unless --allow-writes: without it, no tool that changes anything is listed. */
export const listingFor = (listing: readonly ListedTool[], allowWrites: boolean) => (allowWrites ? listing : listing.filter((entry) => !changes(entry)));

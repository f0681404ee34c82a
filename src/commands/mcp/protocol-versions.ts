/**
 * The protocol revisions the SDK negotiates, newest first. The build replaces
 * this module by its value, a constant (scripts/build/mcp-tool-listing.mjs),
 * so that the answers given before the program loads (src/entry/mcp-front.ts)
 * need none of the SDK.
 */
export { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

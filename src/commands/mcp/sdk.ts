/**
 * The MCP SDK's server side, the one entry point to it: built into a bundle of
 * its own, dist/mcp-sdk.cjs (scripts/build/mcp-sdk-apart.mjs), which only
 * `members mcp` loads, so that no other command reads or compiles it.
 */
export { McpServer } from '@modelcontextprotocol/server';
export { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
export type { CallToolResult, ElicitResult, ServerContext, StandardSchemaV1, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';

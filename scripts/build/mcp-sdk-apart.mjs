// An esbuild plugin for scripts/build.mjs: the MCP SDK stays out of dist/main.cjs.

/**
 * src/commands/mcp/sdk.ts (the MCP server SDK with its own zod and JSON
 * Schema validator) is loaded by `members mcp` alone. It is built into a file
 * of its own, dist/mcp-sdk.cjs; in the program its dynamic import becomes
 * require("./mcp-sdk.cjs"), which bin/members.js resolves beside dist/main.cjs,
 * so every other command reads and compiles a bundle without it.
 */
export const mcpSdkApart = {
  name: 'mcp-sdk-apart',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      (/[\\/]src[\\/]commands[\\/]mcp[\\/]server\.ts$/.test(args.importer) ? { path: './mcp-sdk.cjs', external: true } : undefined));
  },
};

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

/**
 * The SDK picks its JSON Schema validator by export condition: Ajv on Node
 * (295 KB of source with ajv-formats), the self-contained @cfworker/json-schema
 * port elsewhere. It validates only what a client sends back to a form (an
 * elicitation's answer: one string, `reason`), so the lighter one, a public
 * export of the SDK (`validators/cf-worker`), does it on Node too: the bundle
 * shrinks by about half, and `members mcp` compiles it that much sooner.
 */
export const mcpSdkLightValidator = {
  name: 'mcp-sdk-light-validator',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: 'mcp-shims', namespace: 'mcp-shims' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'mcp-shims' }, () => ({
      resolveDir: process.cwd(),
      contents: "export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';\n"
        + "export { default as process } from 'node:process';\n",
    }));
  },
};

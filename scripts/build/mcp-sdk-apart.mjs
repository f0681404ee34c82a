// An esbuild plugin for scripts/build.mjs: the MCP SDK stays out of dist/main.cjs.
import { readFile } from 'node:fs/promises';

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

/**
 * zod compiles a parser for each object schema on its first parse (`new
 * Function`, then V8 compiles that code, which no code cache keeps): worth it
 * for thousands of records, not for the SDK's, which parse a few messages of
 * each kind. The SDK's bundle has a zod of its own, and that one never
 * compiles (its `allowsEval` answers false, as it does where `new Function`
 * is refused); the program's zod, which parses the API's lists, is untouched.
 */
export const mcpSdkZodWithoutJit = {
  name: 'mcp-sdk-zod-without-jit',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]util\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const probe = 'export const allowsEval = /* @__PURE__*/ cached(() => {';
      if (!source.includes(probe)) throw new Error(`scripts/build/mcp-sdk-apart.mjs: ${args.path} has no \`${probe}\`; zod changed: update mcpSdkZodWithoutJit`);
      return { contents: source.replace(probe, `${probe}\n    return false;`), loader: 'js' };
    });
  },
};

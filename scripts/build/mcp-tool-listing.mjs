// The tools/list answer of `members mcp`, computed by the build (src/commands/mcp/listing.ts).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const SOURCE = 'src/commands/mcp/tools/listing.ts';

/**
 * Builds src/commands/mcp/tools/listing.ts alone and runs it: every tool's
 * name, title, description, annotations and input JSON Schema, as zod writes
 * it for the SDK. `options`: the build's common esbuild options.
 */
export async function mcpToolListing(options) {
  const file = new URL('../../dist/.mcp-tool-listing.cjs', import.meta.url).pathname;
  const { outputFiles } = await build({ ...options, entryPoints: [SOURCE], outfile: file, format: 'cjs', sourcemap: false, write: false });
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, outputFiles[0].text);
  try {
    return createRequire(file)(file).LISTING;
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * An esbuild plugin: the module becomes its result, a constant, so `members
 * mcp` answers tools/list without loading the tools, zod, the API client or
 * the domain (they load at the first tools/call).
 */
export function mcpPrecomputedListing(listing) {
  return {
    name: 'mcp-precomputed-listing',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]src[\\/]commands[\\/]mcp[\\/]tools[\\/]listing\.ts$/ }, () => ({
        contents: `export const LISTING = ${JSON.stringify(listing)};\n`, loader: 'js',
      }));
    },
  };
}

/**
 * An esbuild plugin: src/commands/mcp/protocol-versions.ts becomes the SDK's
 * list of revisions, a constant, so the answers given before the program
 * loads (src/entry/mcp-front.ts) need none of the SDK.
 */
export async function mcpPrecomputedVersions() {
  const { SUPPORTED_PROTOCOL_VERSIONS } = await import('@modelcontextprotocol/server');
  return {
    name: 'mcp-precomputed-versions',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]src[\\/]commands[\\/]mcp[\\/]protocol-versions\.ts$/ }, () => ({
        contents: `export const SUPPORTED_PROTOCOL_VERSIONS = ${JSON.stringify(SUPPORTED_PROTOCOL_VERSIONS)};\n`, loader: 'js',
      }));
    },
  };
}

/**
 * What one GET loads besides its own work (docs/performance.md, "Where the time goes now"): each
 * of Node's modules below cost every API command 0.3-0.7 ms, and the undici
 * index put 450 KB in the bundle every run reads. A GET still works without
 * them (the output is checked), so these tests only catch a change that loads
 * them again.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { BIN, run, sandboxGet, useSandboxProcess, tempDir } from './harness.js';
import { workbook } from '../helpers/workbook.js';
import { mcpSettings, toolsFor } from '../../src/commands/mcp/actions.js';

const sandbox = useSandboxProcess(['--students', '3']);

/**
 * Runs members with a preload that writes, as it exits, the Node modules the process loaded and the files it
 * loaded code from: those it required, and the bundles bin compiles itself (bin/code-cache.js reads them with
 * fs.readFileSync, which the preload watches: none of them is in require.cache).
 */
async function modulesLoadedBy(args: string[], cacheHome = tempDir('members-cache-')): Promise<{ stdout: string; stderr: string; modules: string[]; files: string[] }> {
  const recorder = loadRecorder();
  const result = await run(args, { env: { ...sandbox.env, XDG_CACHE_HOME: cacheHome, NODE_OPTIONS: recorder.nodeOptions } });
  expect(result.code).toBe(0);
  return { stdout: result.stdout, stderr: result.stderr, ...recorder.loaded() };
}

/** A preload (NODE_OPTIONS) that writes, as the process exits, what it loaded: see modulesLoadedBy. */
function loadRecorder(): { nodeOptions: string; loaded(): { modules: string[]; files: string[]; order: string[] } } {
  const dir = tempDir('members-load-');
  const preload = join(dir, 'record.cjs');
  const list = join(dir, 'modules.txt');
  const files = join(dir, 'files.txt');
  const events = join(dir, 'order.txt');
  writeFileSync(preload, `const fs = require('node:fs');
const read = [];
const order = [];
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string' && file.endsWith('.cjs')) read.push(file), order.push(file);
  return readFileSync.call(this, file, ...rest);
};
const write = process.stdout.write;
process.stdout.write = function (chunk, ...rest) {
  order.push('stdout: ' + String(chunk).slice(0, 60));
  return write.call(this, chunk, ...rest);
};
process.on('exit', () => {
  fs.writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n'));
  fs.writeFileSync(${JSON.stringify(files)}, [...Object.keys(require.cache), ...read].join('\\n'));
  fs.writeFileSync(${JSON.stringify(events)}, order.join('\\n'));
});\n`);
  return {
    nodeOptions: `--require ${preload}`,
    loaded: () => ({ modules: readFileSync(list, 'utf8').split('\n'), files: readFileSync(files, 'utf8').split('\n'), order: readFileSync(events, 'utf8').split('\n') }),
  };
}

/** `members mcp` as a client runs it, until `work` is done with it; what it loaded by then. */
async function mcpLoads(work: (client: Client) => Promise<void>, cacheHome: string): Promise<{ modules: string[]; order: string[] }> {
  const recorder = loadRecorder();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MEMBERS_KEYCHAIN: 'off', MEMBERS_NO_UPDATE_NOTIFIER: '1', ...sandbox.env, XDG_CACHE_HOME: cacheHome, NODE_OPTIONS: recorder.nodeOptions,
  };
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, stderr: 'pipe' });
  const client = new Client({ name: 'startup-load', version: '1.0.0' });
  await client.connect(transport);
  await work(client);
  const exited = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await client.close();
  await exited;
  return recorder.loaded();
}

/** tools/list as the SDK answers it from the tools' zod schemas (read-only), through its own client. */
async function toolsFromZod(): Promise<unknown> {
  const server = new McpServer({ name: 'members', version: '0' }, { capabilities: { tools: {} } });
  for (const spec of await toolsFor(mcpSettings({ maxRows: '50' }))) {
    server.registerTool(spec.name, { title: spec.title, description: spec.description, inputSchema: spec.input, annotations: spec.annotations }, () => ({ content: [] }));
  }
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'startup-load', version: '1.0.0' });
  await client.connect(clientEnd);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe('one GET', () => {
  it('loads neither perf_hooks, zlib, http2 nor crypto (durations by process.hrtime, the code cache checked by V8\'s own checksum, h2 loaded only when used)', async () => {
    const { body } = await sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/api/v1/students?per_page=1');
    const id = body.data[0]?.id as string;
    // Twice: the first run writes the code cache, the second reads it.
    const cacheHome = tempDir('members-cache-');
    for (let i = 0; i < 2; i++) {
      const { stdout, stderr, modules, files } = await modulesLoadedBy(['students', 'get', id, '-o', 'json'], cacheHome);
      expect(stderr).toBe('');
      expect(JSON.parse(stdout).id).toBe(id);
      // The MCP server and its SDK are bundles of their own, which `members mcp` alone loads.
      expect(files.filter((file) => file.endsWith('main.cjs'))).toHaveLength(1);
      expect(files.filter((file) => /mcp(-sdk)?\.cjs$/.test(file))).toEqual([]);
      expect(modules).toContain('NativeModule net');
      expect(modules.filter((name) => /^NativeModule (perf_hooks|zlib|http2)$/.test(name))).toEqual([]);
      // The change record (its ids and temporary files need crypto) is loaded by changes, and by the
      // first run, which writes the code cache; a read with no interrupted change to check needs neither.
      if (i === 1) expect(modules).not.toContain('NativeModule crypto');
    }
  });

  it('leaves the MCP SDK to `members mcp`: main.cjs holds none of it, and mcp loads its bundle', async () => {
    const bundle = readFileSync(new URL('../../dist/main.cjs', import.meta.url), 'latin1');
    expect(bundle).not.toContain('node_modules/@modelcontextprotocol/');
    const { stdout, files } = await modulesLoadedBy(['mcp', '--check', '-o', 'json']);
    expect(JSON.parse(stdout).map((tool: { name: string }) => tool.name)).toContain('find_student');
    expect(files.filter((file) => file.endsWith('mcp-sdk.cjs'))).toHaveLength(1);
    // The SDK's own zod never compiles a parser (scripts/build/mcp-sdk-apart.mjs); the program's still does, for lists.
    const noJit = /allowsEval=cached\(\(\)=>\{return false;/;
    expect(readFileSync(new URL('../../dist/mcp-sdk.cjs', import.meta.url), 'latin1')).toMatch(noJit);
    expect(bundle).toContain('allowsEval=cached(');
    expect(bundle).not.toMatch(noJit);
  });

  it('starts `members mcp` from a bundle of that command alone: not the whole program, nor the other commands', async () => {
    const { stdout, files, modules } = await modulesLoadedBy(['mcp', '--check', '-o', 'json']);
    expect(JSON.parse(stdout).map((tool: { name: string }) => tool.name)).toContain('find_student');
    expect([...new Set(files.filter((file) => /\/dist\/\w[\w-]*\.cjs$/.test(file)).map((file) => file.replace(/^.*\/dist\//, '')))].sort()).toEqual(['mcp-front.cjs', 'mcp-sdk.cjs', 'mcp.cjs']);
    expect(modules.filter((name) => /^NativeModule (zlib|http2)$/.test(name))).toEqual([]);
    // No other command is declared in the bundle; esbuild names each module it loads lazily by its path: none of
    // another command's, nor the libraries only they use (the CSV reader), nor the SDK (its own bundle).
    const bundle = readFileSync(new URL('../../dist/mcp.cjs', import.meta.url), 'latin1');
    expect(bundle.match(/\.command\("[\w-]+"/g)).toEqual(['.command("mcp"']);
    expect(bundle).toContain('"src/commands/mcp/server.ts"');
    expect(bundle.match(/"src\/commands\/(?!mcp\/|shared\/)[\w-]+\/[\w/-]+\.ts"/g) ?? []).toEqual([]);
    expect(bundle.match(/node_modules\/(csv-parse|exceljs|@modelcontextprotocol)\//g) ?? []).toEqual([]);
  });

  it('answers `members mcp`\'s tools/list from the build\'s listing, the SDK\'s answer from the zod schemas, loading none of what a call needs', async () => {
    // The listing is a constant of the bundles (scripts/build/mcp-tool-listing.mjs): the tools, their zod schemas, the API
    // client and the domain load at the first tools/call.
    expect(readFileSync(new URL('../../dist/mcp.cjs', import.meta.url), 'latin1')).toMatch(/LISTING=\[\{"name":"find_student","title":/);
    const cacheHome = tempDir('members-cache-');
    let listed: unknown;
    const list = async (client: Client) => {
      listed = (await client.listTools()).tools;
    };
    // Twice: the first run writes the code caches (which needs crypto), the second reads them.
    await mcpLoads(list, cacheHome);
    const { modules, order } = await mcpLoads(list, cacheHome);
    expect(listed).toEqual(await toolsFromZod());
    // The record's PostgreSQL client (crypto, dns, tls), compression, workers: none before a tools/call.
    expect(modules.filter((name) => /^NativeModule (crypto|tls|dns|https|zlib|http2|perf_hooks|worker_threads)$/.test(name))).toEqual([]);
    // initialize and tools/list are answered before the program is read (src/entry/mcp-front.ts), which then takes over.
    const bundles = order.filter((event) => /\/dist\/mcp(-front|-sdk)?\.cjs$/.test(event)).map((file) => file.replace(/^.*\/dist\//, ''));
    expect([...new Set(bundles)]).toEqual(['mcp-front.cjs', 'mcp.cjs', 'mcp-sdk.cjs']);
    const at = (pattern: RegExp) => order.findIndex((event) => pattern.test(event));
    expect(at(/^stdout: \{"result":\{"protocolVersion":/)).toBeGreaterThan(at(/mcp-front\.cjs$/));
    expect(at(/^stdout: \{"result":\{"tools":\[/)).toBeGreaterThan(at(/^stdout: \{"result":\{"protocolVersion":/));
    expect(at(/\/dist\/mcp\.cjs$/)).toBeGreaterThan(at(/^stdout: \{"result":\{"tools":\[/));
    // The program's SDK answered initialize again, and that answer was dropped: the client read each answer once.
    expect(order.filter((event) => event.startsWith('stdout: {"result":{"protocolVersion":'))).toHaveLength(1);
  });

  it('ships an SDK bundle that builds none of its schemas as it loads (scripts/build/mcp-sdk-lazy-schemas.mjs)', () => {
    // V8's call counts (NODE_V8_COVERAGE) of a process that loads the bundle and nothing else: ~560 calls with the
    // schemas built when first read, ~26,000 when the module bodies build all ~190 of them and their ~1,170 zod objects.
    const coverage = tempDir('members-coverage-');
    const sdk = new URL('../../dist/mcp-sdk.cjs', import.meta.url).pathname;
    const loaded = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(sdk)})`], { env: { ...process.env, NODE_V8_COVERAGE: coverage } });
    expect(loaded.status).toBe(0);
    let calls = 0;
    for (const name of readdirSync(coverage)) {
      const { result } = JSON.parse(readFileSync(join(coverage, name), 'utf8')) as { result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }> };
      for (const script of result.filter((each) => each.url.endsWith('/dist/mcp-sdk.cjs'))) {
        for (const fn of script.functions) calls += fn.ranges[0]?.count ?? 0;
      }
    }
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(2000);
  });

  it('leaves exceljs to workbooks: a bulk run from a CSV loads neither the xlsx reader nor the writer, one from a workbook the reader alone', async () => {
    const [{ body: students }, { body: products }] = await Promise.all([
      sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/api/v1/students?per_page=1'),
      sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/api/v1/products?per_page=1'),
    ]);
    const dir = tempDir('members-load-');
    const csv = join(dir, 'grants.csv');
    writeFileSync(csv, `student,product_id\n${students.data[0]?.id},${products.data[0]?.id}\n`);
    const xlsx = join(dir, 'grants.xlsx');
    writeFileSync(xlsx, await workbook({ Planilha1: { 1: ['student', 'product_id'], 2: [students.data[0]?.id ?? '', products.data[0]?.id ?? ''] } }));
    const bundles = (files: string[]) => [...new Set(files.filter((file) => /\/dist\/xlsx[\w-]*\.cjs$/.test(file)).map((file) => file.replace(/^.*\/dist\//, '')))];
    expect(bundles((await modulesLoadedBy(['students', 'grant', '--file', csv, '--dry-run'])).files)).toEqual([]);
    expect(bundles((await modulesLoadedBy(['students', 'grant', '--file', xlsx, '--dry-run'])).files)).toEqual(['xlsx-read.cjs']);
  });

  it('reads bundles that point at no source map: the package ships none', () => {
    const bundles = readdirSync(new URL('../../dist/', import.meta.url)).filter((name) => name.endsWith('.cjs'));
    expect(bundles).toContain('main.cjs');
    for (const name of bundles) {
      expect({ name, links: readFileSync(new URL(`../../dist/${name}`, import.meta.url), 'latin1').match(/sourceMappingURL/g) }).toEqual({ name, links: null });
    }
  });

  it('reads a bundle without undici\'s index, fetch, WebSocket or mocks', () => {
    const bundle = readFileSync(new URL('../../dist/main.cjs', import.meta.url), 'latin1');
    // esbuild names each CommonJS module it bundles by its path.
    expect(bundle).toContain('node_modules/undici/lib/dispatcher/agent.js"');
    expect(bundle.match(/node_modules\/undici\/(index\.js|lib\/web\/fetch\/index\.js|lib\/web\/websocket\/\w+\.js|lib\/mock\/\w+\.js)"/g) ?? []).toEqual([]);
  });
});

describe('the process-wide switches', () => {
  it('a run with MEMBERS_DEBUG=1 reports, after its output, what the update notice did, the V8 flags bin set and what became of the code cache', async () => {
    const { body } = await sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/api/v1/students?per_page=1');
    const id = body.data[0]?.id as string;
    const cache = tempDir('members-load-');
    const env = { ...sandbox.env, XDG_CACHE_HOME: cache, MEMBERS_DEBUG: '1' };
    const file = expect.stringMatching(new RegExp(`^${cache}/members/code-cache-[0-9a-f]{16}-${process.version}-${process.arch}\\.bin$`));
    const reports = [];
    for (let i = 0; i < 2; i++) {
      const result = await run(['students', 'get', id, '-o', 'json'], { env });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).id).toBe(id);
      const [notice, flags, cacheLine, rest] = result.stderr.split('\n');
      // Off in the harness (MEMBERS_NO_UPDATE_NOTIFIER=1), and off a terminal anyway.
      expect(notice).toBe('debug: update notice: off (MEMBERS_NO_UPDATE_NOTIFIER is set)');
      expect(flags).toBe('debug: V8 flags: --liftoff-only --verify-snapshot-checksum');
      expect(rest).toBe('');
      reports.push(/^debug: code cache: (.+): (.+)$/.exec(cacheLine ?? '')?.slice(1));
    }
    expect(reports).toEqual([[file, 'none read, written'], [file, 'used']]);
  });
});

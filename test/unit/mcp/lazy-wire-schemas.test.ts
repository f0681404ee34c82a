/**
 * The build's rewrite of the MCP SDK's wire schemas (scripts/build/mcp-sdk-lazy-wire-schemas.mjs): each schema is
 * built when first read, once, with the ones it is made of; a module of another shape fails the build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without declarations.
import { lazyWireSchemas } from '../../../scripts/build/mcp-sdk-lazy-wire-schemas.mjs';

const rewrite = lazyWireSchemas as (source: string, path: string) => string;

/** The SDK's shape in small: a memoised set of consts, and the tables that read it. */
const MODULE = `
function build$1() {
  const A = make('A');
  const B = make('B', A);
  const Loop = make('Loop', () => Loop);
  const C = make('C', { A, inner: B });
  return { A, Bee: B, Loop, C, Both: make('Both', A, B) };
}
let memo$1;
function buildSchemas2025() {
  return memo$1 ??= build$1();
}
let maps$1;
function registryMaps() {
  if (maps$1) return maps$1;
  const s = buildSchemas2025();
  maps$1 = { requestSchemas: { a: s.A, "b/c": s.C } };
  return maps$1;
}
return { buildSchemas2025, registryMaps };`;

function load(source: string) {
  const built: string[] = [];
  const make = (name: string, ...parts: unknown[]) => {
    built.push(name);
    return { name, parts };
  };
  const exports = new Function('make', source)(make) as { buildSchemas2025(): Record<string, { name: string; parts: unknown[] }>; registryMaps(): { requestSchemas: Record<string, unknown> } };
  return { built, ...exports };
}

describe('the MCP SDK\'s wire schemas, built when first read', () => {
  it('builds nothing until a schema is read, then it and the ones it is made of, each once', () => {
    const { built, buildSchemas2025, registryMaps } = load(rewrite(MODULE, 'module.mjs'));
    const set = buildSchemas2025();
    expect(built).toEqual([]);
    const tables = registryMaps().requestSchemas;
    expect(built).toEqual([]);
    expect(tables.a).toBe(set.A);
    expect(built).toEqual(['A']);
    expect(set.Bee?.parts).toEqual([set.A]);
    expect(built).toEqual(['A', 'B']);
    expect(tables['b/c']).toBe(set.C);
    expect(set.C?.parts).toEqual([{ A: set.A, inner: set.Bee }]);
    expect((set.Loop?.parts[0] as () => unknown)()).toBe(set.Loop);
    expect(set.Both?.parts).toEqual([set.A, set.Bee]);
    expect(built).toEqual(['A', 'B', 'C', 'Loop', 'Both']);
  });

  it('refuses a module of another shape rather than build something else', () => {
    expect(() => rewrite(MODULE.replace("const B = make('B', A);", "let B = make('B', A);"), 'module.mjs')).toThrow(/not shaped as expected.*const NAME = value/);
    expect(() => rewrite(MODULE.replace("make('Loop', () => Loop)", "make('Loop', (A) => A)"), 'module.mjs')).toThrow(/bound again/);
    expect(() => rewrite(MODULE.replace('"b/c": s.C', '"b/c": make()'), 'module.mjs')).toThrow(/key: s.Name/);
  });

  it('rewrites the SDK the project depends on', () => {
    const dist = join('node_modules', '@modelcontextprotocol', 'server', 'dist');
    const files = readdirSync(dist).filter((name) => /^src-[\w-]+\.mjs$/.test(name));
    expect(files).toHaveLength(1);
    const source = readFileSync(join(dist, files[0] as string), 'utf8');
    expect(rewrite(source, files[0] as string)).toContain('$lazySchema($lazySchemas, "InitializeRequestSchema$1", () =>');
  });
});

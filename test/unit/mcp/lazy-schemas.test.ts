/**
 * The build's rewrite of the MCP SDK's module-scope schemas (scripts/build/mcp-sdk-lazy-schemas.mjs): in the bundle,
 * each is built when first read, once, with the ones it is made of; the spec-type registry reads them when asked; a
 * bundle or a module of another shape fails the build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without declarations.
import { lazyRegistry, lazySchemas } from '../../../scripts/build/mcp-sdk-lazy-schemas.mjs';

type Shape = { schemas: { min: number; max: number }; derived: string[] };
const rewrite = lazySchemas as (source: string, path: string, expected?: Shape) => string;
const registry = lazyRegistry as (source: string, path: string) => string;
const SMALL: Shape = { schemas: { min: 1, max: 10 }, derived: ['KEYS'] };

/** The bundle's shape in small: schemas made of one another, a recursive one, a derived set, readers after them. */
const BUNDLE = `"use strict";
function make(name, ...parts) { built.push(name); return { name, parts, extend: (more) => make(name + '+', more) }; }
var ASchema = make('A');
var BSchema = ASchema.extend({ inner: ASchema });
var LoopSchema = make('Loop', () => LoopSchema);
var KEYS = new Set(Object.keys(BSchema));
var exports_ = { ASchema: () => ASchema };
function read() { return { BSchema, loop: LoopSchema, keys: KEYS }; }
return { exports_, read };`;

function load(source: string) {
  const built: string[] = [];
  const module = new Function('built', source)(built) as { exports_: { ASchema(): unknown }; read(): { BSchema: { parts: unknown[] }; loop: { parts: [() => unknown] }; keys: Set<string> } };
  return { built, ...module };
}

describe('the MCP SDK\'s module-scope schemas, built when first read', () => {
  it('builds nothing at load, then a schema and the ones it is made of when read, each once', () => {
    const { built, exports_, read } = load(rewrite(BUNDLE, 'bundle.cjs', SMALL));
    expect(built).toEqual([]);
    const a = exports_.ASchema();
    expect(built).toEqual(['A']);
    const first = read();
    expect(built).toEqual(['A', 'A+', 'Loop']);
    expect(first.BSchema.parts).toEqual([{ inner: a }]);
    expect(first.loop.parts[0]()).toBe(first.loop);
    expect(first.keys.has('parts')).toBe(true);
    expect(read().BSchema).toBe(first.BSchema);
    expect(built).toEqual(['A', 'A+', 'Loop']);
  });

  it('refuses a bundle it does not expect, rather than build something else', () => {
    const fails = (source: string, what: RegExp, expected = SMALL) => expect(() => rewrite(source, 'bundle.cjs', expected)).toThrow(what);
    fails(BUNDLE.replace("make('A')", "new Thing('A')"), /ASchema's value does more than build/);
    fails(BUNDLE.replace("make('A')", "(counter = 1, make('A'))"), /ASchema's value does more than build/);
    fails(BUNDLE.replace("make('A')", "register('A')"), /ASchema's value calls register/);
    fails(BUNDLE.replace('function read() {', 'function read() { ASchema = null;'), /ASchema is assigned/);
    fails(BUNDLE.replace('function read() {', 'function read(BSchema) {'), /BSchema is declared again in an inner scope/);
    fails(BUNDLE.replace('var KEYS', 'var OTHER'), /no top-level KEYS/);
    fails(BUNDLE, /3 top-level schemas, not 4–10/, { ...SMALL, schemas: { min: 4, max: 10 } });
    fails(BUNDLE.replace('var ASchema', 'var $sdkSchemas = 1, ASchema'), /uses \$sdkSchemas/);
  });
});

describe('the SDK\'s spec-type registry', () => {
  const dist = join(process.cwd(), 'node_modules/@modelcontextprotocol/server/dist');
  const file = readdirSync(dist).find((name) => /^src-[\w-]+\.mjs$/.test(name));
  const source = readFileSync(join(dist, file ?? 'missing'), 'utf8');

  it('takes a read of each schema in the installed SDK, and its auth table holds getters', () => {
    const out = registry(source, file ?? '');
    expect(out).toContain('register(key, () => schemas_exports[key])');
    expect(out).toContain("\tget OAuthTokensSchema() { return OAuthTokensSchema; },");
    expect(out).not.toContain('register(key, schema)');
  });

  it('fails the build when the registry changes', () => {
    expect(() => registry(source.replace('register(key, schema);', 'register(key, schema, 1);'), 'src.mjs')).toThrow(/no spec-type registry as it was/);
    expect(() => registry(source.replace('const authSchemas = {', 'const authSchemas = { ...more,'), 'src.mjs')).toThrow(/authSchemas/);
  });
});

// An esbuild plugin for scripts/build.mjs: the MCP SDK's module-scope zod schemas are built when first read.
import { readFile, rm, writeFile } from 'node:fs/promises';
import ts from 'typescript';
import { lazyWireSchemas } from './mcp-sdk-lazy-wire-schemas.mjs';

/**
 * The SDK's modules build ~190 zod schemas at their top level (the spec's
 * types, OAuth's, the server's own: ~1,170 zod objects with their parts), 87 %
 * of the JavaScript calls the SDK makes before `members mcp` answers its first
 * `tools/list`, for a server that reads a few dozen of them
 * (docs/performance-log.md). They are imported across the SDK's modules, so
 * the rewrite is of the bundle, where esbuild has put every module in one
 * scope: each top-level `var NameSchema = …` becomes a getter of one object
 * that builds the schema when first read and replaces itself with it (each is
 * built once; identities hold), and every read of the name a read of that
 * property. The schemas are the SDK's own, unchanged. Before bundling, the
 * server's module has its wire schemas (mcp-sdk-lazy-wire-schemas.mjs) and
 * its spec-type registry (below) made lazy.
 *
 * The rewrite checks what it rewrites and fails the build when an SDK update
 * changes it, rather than build something else: a schema's value is an
 * expression without effects but building (calls of the bundle's functions and
 * of methods, names, literals, objects, arrays, functions, getters: no `new`,
 * no assignment), its name is never written nor declared again in an inner
 * scope, and there are as many as expected.
 */
export const mcpSdkLazySchemas = {
  name: 'mcp-sdk-lazy-schemas',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]src-[\w-]+\.mjs$/ }, async (args) => ({
      contents: lazyRegistry(lazyWireSchemas(await readFile(args.path, 'utf8'), args.path), args.path),
      loader: 'js',
    }));
    esbuild.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      const path = esbuild.initialOptions.outfile;
      await writeFile(path, lazySchemas(await readFile(path, 'utf8'), path));
      // esbuild's map no longer matches the bundle's columns; the SDK's code keeps its names without it.
      await rm(`${path}.map`, { force: true });
    });
  },
};

/**
 * The spec-type registry (\`specTypeSchemas\`, \`isSpecType\`: public exports the
 * server never reads) takes every schema at load; here it takes a read of
 * each, made when an entry is.
 */
const REGISTRY = `function register(key, schema) {
\tconst name = key.slice(0, -6);
\t_specTypeSchemas[name] = schema;
\t_isSpecType[name] = (v) => schema.safeParse(v).success;
}
for (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);
for (const [key, schema] of Object.entries(authSchemas)) register(key, schema);`;
const LAZY_REGISTRY = `function register(key, read) {
\tconst name = key.slice(0, -6);
\tObject.defineProperty(_specTypeSchemas, name, { get: read, enumerable: true });
\t_isSpecType[name] = (v) => read().safeParse(v).success;
}
for (const key of SPEC_SCHEMA_KEYS) register(key, () => schemas_exports[key]);
for (const key of Object.keys(authSchemas)) register(key, () => authSchemas[key]);`;
const AUTH = /^const authSchemas = \{\n((?:\t\w+,?\n)+)\};$/m;

/** What fails the build when `path` is not what the rewrite expects. */
function failing(path) {
  return (what) => {
    throw new Error(`scripts/build/mcp-sdk-lazy-schemas.mjs: ${path} is not shaped as expected (${what}); the MCP SDK changed: update the rewrite or drop it`);
  };
}

export function lazyRegistry(source, path) {
  const fail = failing(path);
  if (source.split(REGISTRY).length !== 2) fail('no spec-type registry as it was');
  const auth = AUTH.exec(source);
  if (!auth) fail('no `const authSchemas = { Name, … }`');
  const getters = auth[1].split('\n').filter(Boolean).map((line) => line.replace(/^\t(\w+),?$/, '\tget $1() { return $1; },')).join('\n');
  return source.replace(REGISTRY, LAZY_REGISTRY).replace(auth[0], `const authSchemas = {\n${getters}\n};`);
}

/**
 * The SDK's bundle as this rewrite expects it: how many top-level schemas it
 * builds (2.4.0: 182; fewer or more than this range means it changed), and
 * the values it derives from them at its top level, for elicitation forms
 * alone, built when first read too.
 */
const SDK = { schemas: { min: 170, max: 220 }, derived: ['ROOT_KEYS', 'PROPERTY_KEYS_BY_TYPE', 'SUPPORTED_STRING_FORMATS'] };
const HOLDER = '$sdkSchemas';
const LAZY = '$sdkLazySchema';
const HELPER = `var ${HOLDER}={};function ${LAZY}(name,make){Object.defineProperty(${HOLDER},name,{configurable:true,enumerable:true,get(){const value=make();Object.defineProperty(${HOLDER},name,{value,enumerable:true});return value}})}`;

export function lazySchemas(source, path, expected = SDK) {
  const fail = failing(path);
  for (const name of [HOLDER, LAZY]) if (source.includes(name)) fail(`it uses ${name}`);
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const functions = new Set(file.statements.filter(ts.isFunctionDeclaration).map((node) => node.name?.text));
  const schemas = new Map();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
      if (!declaration.name.text.endsWith('Schema') && !expected.derived.includes(declaration.name.text)) continue;
      if (statement.declarationList.declarations.length !== 1) fail(`${declaration.name.text} is declared among others`);
      schemas.set(declaration.name.text, { statement, value: declaration.initializer });
    }
  }
  for (const name of expected.derived) if (!schemas.has(name)) fail(`no top-level ${name}`);
  const { min, max } = expected.schemas;
  if (schemas.size - expected.derived.length < min || schemas.size - expected.derived.length > max) fail(`${schemas.size - expected.derived.length} top-level schemas, not ${min}–${max}`);
  for (const [name, { value }] of schemas) onlyBuilds(value, name, functions, fail);

  const edits = [];
  const visit = (node) => {
    if (ts.isIdentifier(node) && schemas.has(node.text)) {
      const declared = schemas.get(node.text).statement;
      if (declares(node)) {
        if (node.parent.parent?.parent !== declared) fail(`${node.text} is declared again in an inner scope`);
      } else if (isWritten(node)) {
        fail(`${node.text} is assigned`);
      } else if (!isPropertyName(node)) {
        edits.push({ start: node.getStart(file), end: node.end, text: ts.isShorthandPropertyAssignment(node.parent) ? `${node.text}:${HOLDER}.${node.text}` : `${HOLDER}.${node.text}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  // Each declaration becomes its getter, its value rewritten by the reads inside it.
  const replaced = [];
  for (const [name, { statement, value }] of schemas) {
    const inside = edits.filter(({ start }) => start >= value.getStart(file) && start < value.end);
    let text = source.slice(value.getStart(file), value.end);
    for (const edit of inside.sort((a, b) => b.start - a.start)) {
      text = text.slice(0, edit.start - value.getStart(file)) + edit.text + text.slice(edit.end - value.getStart(file));
    }
    replaced.push({ start: statement.getStart(file), end: statement.end, text: `${LAZY}(${JSON.stringify(name)},()=>(${text}));` });
  }
  const outside = edits.filter(({ start }) => !replaced.some((range) => start >= range.start && start < range.end));
  const body = file.statements[0];
  const prologue = ts.isExpressionStatement(body) && ts.isStringLiteral(body.expression) ? body.end : 0;
  let out = source;
  for (const { start, end, text } of [...replaced, ...outside, { start: prologue, end: prologue, text: HELPER }].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, start) + text + out.slice(end);
  }
  return out;
}

/** Fails unless `node` only builds values: calls, names, literals, objects, arrays, functions; no `new`, no assignment. */
function onlyBuilds(node, name, functions, fail) {
  const visit = (child) => {
    if (ts.isFunctionLike(child)) return; // its body runs when the schema uses it (a getter, `lazy(() => …)`), as before
    const newSet = ts.isNewExpression(child) && ts.isIdentifier(child.expression) && child.expression.text === 'Set';
    if (ts.isNewExpression(child) && !newSet || ts.isDeleteExpression(child) || ts.isAwaitExpression(child) || ts.isYieldExpression(child)
      || ts.isPrefixUnaryExpression(child) && [ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(child.operator)
      || ts.isPostfixUnaryExpression(child) || ts.isTaggedTemplateExpression(child) || child.kind === ts.SyntaxKind.ThisKeyword
      || ts.isBinaryExpression(child) && (ts.isAssignmentOperator(child.operatorToken.kind) || child.operatorToken.kind === ts.SyntaxKind.CommaToken)) {
      fail(`${name}'s value does more than build (${ts.SyntaxKind[child.kind]})`);
    }
    if (ts.isCallExpression(child) && ts.isIdentifier(child.expression) && !functions.has(child.expression.text)) {
      fail(`${name}'s value calls ${child.expression.text}, not a function of the bundle`);
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
}

/** The name of a declaration (variable, parameter, function, class, binding). */
function declares(identifier) {
  const parent = identifier.parent;
  return (ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent) || ts.isFunctionExpression(parent)
    || ts.isClassDeclaration(parent) || ts.isClassExpression(parent) || ts.isBindingElement(parent)) && parent.name === identifier;
}

function isWritten(identifier) {
  const parent = identifier.parent;
  return (ts.isBinaryExpression(parent) && ts.isAssignmentOperator(parent.operatorToken.kind) && parent.left === identifier)
    || ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) && parent.operand === identifier);
}

/** `a.Name`, `{ Name: … }`, a method's or a label's name: not a read of the variable. */
function isPropertyName(identifier) {
  const parent = identifier.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === identifier) return true;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent)
    || ts.isPropertyDeclaration(parent) || ts.isLabeledStatement(parent)) && parent.name === identifier) return true;
  return (ts.isBreakOrContinueStatement(parent) && parent.label === identifier) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent);
}

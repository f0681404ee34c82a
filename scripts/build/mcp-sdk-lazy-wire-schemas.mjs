// For scripts/build/mcp-sdk-lazy-schemas.mjs's plugin: the MCP SDK builds the wire schemas of a protocol revision one at a time.
import ts from 'typescript';

/**
 * The server SDK validates each message against the zod schema of its method
 * in the 2025-11-25 revision, and builds those schemas on the first message:
 * all 140-odd of them at once (`buildSchemas2025`, then `registryMaps`, which
 * reads every one into its tables), ~45 % of what `members mcp` does between
 * its start and its first `tools/list` answer (docs/performance.md). In the
 * bundle each schema is built when it is first read, with the ones it is made
 * of: a server that answers initialize, tools/list and tools/call builds a
 * tenth of them. The schemas are the SDK's own, unchanged, and each is built
 * once (a getter that replaces itself with its value), so identities hold.
 *
 * The rewrite checks the shape it expects (a function of single `const`
 * declarations returning an object of them; tables of `s.Name`) and fails the
 * build when an SDK update changes it, rather than build something else.
 */

/** The names this rewrite adds; an SDK that uses any of them already is refused. */
const SCHEMAS = '$lazySchemas';
const TABLE = '$lazyTable';
const LAZY = '$lazySchema';
const HELPER = `const ${LAZY} = (object, name, make) => Object.defineProperty(object, name, { configurable: true, enumerable: true, get() {
  const value = make();
  Object.defineProperty(object, name, { value, enumerable: true });
  return value;
} });`;

export function lazyWireSchemas(source, path) {
  const fail = (what) => {
    throw new Error(`scripts/build/mcp-sdk-lazy-wire-schemas.mjs: ${path} is not shaped as expected (${what}); the MCP SDK changed: update the rewrite or drop it`);
  };
  for (const name of [SCHEMAS, TABLE, LAZY]) if (source.includes(name)) fail(`it uses ${name}`);
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const functions = new Map(file.statements.filter(ts.isFunctionDeclaration).map((node) => [node.name?.text, node]));
  const edits = [];

  // function buildSchemas2025() { return memo ??= build(); }
  const memo = functions.get('buildSchemas2025')?.body?.statements[0];
  const call = memo && ts.isReturnStatement(memo) && memo.expression && ts.isBinaryExpression(memo.expression) ? memo.expression.right : undefined;
  if (!call || !ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) fail('buildSchemas2025 returns no memoised call');
  const build = functions.get(call.expression.text);
  if (!build?.body) fail(`no function ${call.expression.text}`);
  edits.push(...lazyBuild(build.body, file, fail));

  // function registryMaps() { …; const s = buildSchemas2025(); maps = { requestSchemas: { ping: s.PingRequestSchema, … }, … }; … }
  const maps = functions.get('registryMaps');
  if (!maps?.body) fail('no function registryMaps');
  edits.push(...lazyTables(maps.body, file, fail));

  let out = source;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

/** `const A = …; const B = A.extend(…); return { A, Key: B, … };` → each built when first read. */
function lazyBuild(body, file, fail) {
  const statements = [...body.statements];
  const result = statements.pop();
  if (!result || !ts.isReturnStatement(result) || !result.expression || !ts.isObjectLiteralExpression(result.expression)) fail('the schema set is not returned as an object');
  const declarations = statements.map((statement) => {
    const list = ts.isVariableStatement(statement) ? statement.declarationList : undefined;
    const single = list && (list.flags & ts.NodeFlags.Const) !== 0 && list.declarations.length === 1 ? list.declarations[0] : undefined;
    if (!single || !ts.isIdentifier(single.name) || !single.initializer) fail('a statement of the schema set is not `const NAME = value`');
    return { statement, name: single.name.text, value: single.initializer };
  });
  const names = new Set(declarations.map(({ name }) => name));
  if (innerBindings(body).some((name) => names.has(name))) fail('a schema\'s name is bound again inside the set');
  const edits = declarations.map(({ statement, name, value }) => ({
    start: statement.getStart(file), end: statement.end, text: `${LAZY}(${SCHEMAS}, ${JSON.stringify(name)}, () => ${referencesRead(value, names, file)});`,
  }));
  const entries = result.expression.properties.map((property) => {
    if (ts.isShorthandPropertyAssignment(property)) return [property.name.text, `${SCHEMAS}.${property.name.text}`];
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)) return [property.name.text, referencesRead(property.initializer, names, file)];
    return fail('the schema set holds an entry that is not `Name` or `Name: value`');
  });
  edits.push({
    start: result.getStart(file),
    end: result.end,
    text: `const ${TABLE} = {};\n${entries.map(([key, value]) => `${LAZY}(${TABLE}, ${JSON.stringify(key)}, () => ${value});`).join('\n')}\nreturn ${TABLE};`,
  });
  edits.push({ start: body.getStart(file) + 1, end: body.getStart(file) + 1, text: `\n${HELPER}\nconst ${SCHEMAS} = {};` });
  return edits;
}

/** The text of `node` with each read of a schema of the set (`names`) made a read of its lazy property. */
function referencesRead(node, names, file) {
  const start = node.getStart(file);
  const edits = [];
  const visit = (child) => {
    if (ts.isIdentifier(child) && names.has(child.text) && isRead(child)) {
      edits.push({ at: child.getStart(file) - start, end: child.end - start, text: `${SCHEMAS}.${child.text}` });
    } else if (ts.isShorthandPropertyAssignment(child) && names.has(child.name.text)) {
      edits.push({ at: child.getStart(file) - start, end: child.end - start, text: `${child.name.text}: ${SCHEMAS}.${child.name.text}` });
      return;
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  let text = node.getText(file);
  for (const { at, end, text: replacement } of edits.sort((a, b) => b.at - a.at)) text = text.slice(0, at) + replacement + text.slice(end);
  return text;
}

/** An identifier that reads a variable: not a property's name (`a.Name`, `{ Name: … }`), nor a declaration's. */
function isRead(identifier) {
  const parent = identifier.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === identifier) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent)) && parent.name === identifier) return false;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent) || ts.isBindingElement(parent)) && parent.name === identifier) return false;
  return true;
}

/** Every name declared inside the set's functions (parameters, variables), which could hide a schema's name. */
function innerBindings(body) {
  const found = [];
  const visit = (node) => {
    if ((ts.isParameter(node) || ts.isVariableDeclaration(node) || ts.isBindingElement(node)) && ts.isIdentifier(node.name) && node.parent?.parent?.parent !== body) {
      found.push(node.name.text);
    }
    if (ts.isFunctionDeclaration(node) && node.name) found.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** `maps = { requestSchemas: { ping: s.PingRequestSchema, … }, … }` → each entry a getter, read when its method is. */
function lazyTables(body, file, fail) {
  const edits = [];
  const visit = (node) => {
    if (ts.isObjectLiteralExpression(node) && ts.isBinaryExpression(node.parent) && node.parent.right === node) {
      for (const table of node.properties) {
        if (!ts.isPropertyAssignment(table) || !ts.isObjectLiteralExpression(table.initializer)) fail('registryMaps holds something other than tables');
        for (const entry of table.initializer.properties) {
          if (!ts.isPropertyAssignment(entry) || !ts.isPropertyAccessExpression(entry.initializer)) fail('a table of registryMaps holds something other than `key: s.Name`');
          edits.push({ start: entry.getStart(file), end: entry.end, text: `get ${entry.name.getText(file)}() { return ${entry.initializer.getText(file)}; }` });
        }
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  if (edits.length === 0) fail('registryMaps builds no tables');
  return edits;
}

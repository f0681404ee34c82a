// For scripts/build.mjs: stand-ins for the two built-ins undici loads at its top for little.
import { readFile } from 'node:fs/promises';

/**
 * undici loads node:http and node:assert at its top for little: http for
 * IncomingMessage (core/util.js, to spare the socket of a server's request it
 * destroys; members never hands it one) and maxHeaderSize (dispatcher/client.js,
 * the default header cap), assert for assert(value) on its invariants.
 * Loading both cost every API command 1 ms. In the bundle undici gets the two
 * values (the header cap is Node's default, or http's own when
 * --max-http-header-size is set) and an assert that loads node:assert only to
 * throw its AssertionError. The build fails when undici takes anything else
 * from them, or uses them in a way namesTaken cannot follow.
 */
const UNDICI_IMPORTER = /[\\/]node_modules[\\/]undici[\\/]lib[\\/]/;
const STAND_INS = {
  'node:http': {
    names: ['IncomingMessage', 'maxHeaderSize'],
    contents: `exports.IncomingMessage = class IncomingMessageNotLoaded {};
Object.defineProperty(exports, 'maxHeaderSize', {
  enumerable: true,
  get: () => ([...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('--max-http-header-size'))
    ? require('node:http').maxHeaderSize
    : 16 * 1024),
});
`,
  },
  'node:assert': {
    names: [],
    contents: `module.exports = function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const { AssertionError } = require('node:assert');
  throw new AssertionError({ message: message ?? 'The expression evaluated to a falsy value', actual: value, expected: true, operator: '==' });
};
`,
  },
};

/** The source without comments and string literals (their text is not a use). */
const code = (source) => source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, '""');

/**
 * The names an undici module takes from built-in `id`, or undefined when it
 * uses it in a way this cannot follow. Every require of it must be
 * `const { a, b } = require(id)` or `const x = require(id)`, and x appear
 * only as `x.name`, `x?.name`, a call `x(…)`, or a test `x &&`.
 */
export function namesTaken(source, id) {
  const quoted = `['"]${id}['"]`;
  const requires = source.match(new RegExp(`require\\(${quoted}\\)`, 'g')) ?? [];
  const forms = [...source.matchAll(new RegExp(`(?:const|let|var)\\s+(?:\\{([^}]*)\\}|(\\w+))\\s*=\\s*require\\(${quoted}\\)(?!\\s*[.[(?])`, 'g'))];
  if (requires.length === 0 || forms.length !== requires.length) return undefined;
  const names = [];
  for (const [statement, destructured, binding] of forms) {
    if (destructured !== undefined) {
      const parts = destructured.split(',').map((part) => part.trim()).filter(Boolean);
      if (parts.some((part) => !/^\w+(\s*:\s*\w+)?$/.test(part))) return undefined;
      names.push(...parts.map((part) => part.split(':')[0].trim()));
      continue;
    }
    for (const use of code(source.replace(statement, '')).matchAll(new RegExp(`(?<![\\w.$])${binding}(?![\\w$])(\\s*\\??\\.\\s*(\\w+)|\\s*\\(|\\s*&&)?`, 'g'))) {
      if (use[2]) names.push(use[2]);
      else if (use[1] === undefined) return undefined;
    }
  }
  return names;
}

export const undiciStandIns = {
  name: 'undici-stand-ins',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:(http|assert)$/ }, async (args) => {
      if (!UNDICI_IMPORTER.test(args.importer)) return undefined;
      const taken = namesTaken(await readFile(args.importer, 'utf8'), args.path);
      const extra = taken?.filter((name) => !STAND_INS[args.path].names.includes(name));
      if (extra === undefined || extra.length > 0) {
        const what = extra === undefined ? 'uses it in a way the build cannot follow' : `takes ${extra.join(', ')} from it`;
        return { errors: [{ text: `${args.importer} ${what}: ${args.path}'s stand-in may not do (scripts/build/undici-stand-ins.mjs)` }] };
      }
      return { path: args.path, namespace: 'undici-stand-in' };
    });
    esbuild.onLoad({ filter: /.*/, namespace: 'undici-stand-in' }, (args) => ({ contents: STAND_INS[args.path].contents, loader: 'js' }));
  },
};

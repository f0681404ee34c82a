// An esbuild plugin for scripts/build.mjs: undici's client bundled with its HTTP/2 module loaded when it connects over h2.
import { dirname, join } from 'node:path';

/**
 * undici's client requires its HTTP/2 module at its top, which loads
 * node:http2 (7 ms of every API command) for a protocol members never
 * negotiates (allowH2 is off). In the bundle the client gets a connectH2
 * that loads that module when called.
 */
export const undiciWithLazyH2 = {
  name: 'undici-with-lazy-h2',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      (/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), 'client-h2.js'), namespace: 'lazy-h2' } : undefined));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
      contents: `module.exports = function connectH2(...args) { return require(${JSON.stringify(args.path)})(...args); };\n`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

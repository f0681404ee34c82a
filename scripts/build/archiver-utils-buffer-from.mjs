// An esbuild plugin for scripts/build.mjs: archiver-utils without the deprecated Buffer constructor.
import { readFile } from 'node:fs/promises';

/**
 * archiver-utils 2 (exceljs → archiver 5) calls `new Buffer()`. Node warns
 * of that (DEP0005) only for code outside node_modules, which bundled code
 * is: every xlsx export printed a DeprecationWarning on stderr. Its three
 * calls become Buffer.alloc and Buffer.from, which do the same; the build
 * fails if another one appears.
 */
export const archiverUtilsBufferFrom = {
  name: 'archiver-utils-buffer-from',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]archiver-utils[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(/new Buffer\((0|size)\)/g, 'Buffer.alloc($1)').replace(/new Buffer\(source\)/g, 'Buffer.from(source)');
      if (/new Buffer\(/.test(contents)) throw new Error(`${args.path}: a new Buffer() is left that scripts/build/archiver-utils-buffer-from.mjs does not know`);
      return { contents, loader: 'js' };
    });
  },
};

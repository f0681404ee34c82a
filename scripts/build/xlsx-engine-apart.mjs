// An esbuild plugin for scripts/build.mjs: the xlsx writer stays out of dist/main.cjs.

/**
 * src/output/xlsx-engine.ts (exceljs's streaming writer, 650 KB bundled)
 * cost every run 10 ms of CPU to load, xlsx or not. It is built into a file
 * of its own, dist/xlsx.cjs; in the program its dynamic import becomes
 * require("./xlsx.cjs"), which bin/members.js resolves beside dist/main.cjs.
 */
export const xlsxEngineApart = {
  name: 'xlsx-engine-apart',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/xlsx-engine\.js$/ }, (args) =>
      (/[\\/]src[\\/]output[\\/]xlsx\.ts$/.test(args.importer) ? { path: './xlsx.cjs', external: true } : undefined));
  },
};

/**
 * The xlsx reader (src/domain/bulk/xlsx-sheet.ts: exceljs's streaming reader
 * with unzipper, 800 KB bundled) likewise, into dist/xlsx-read.cjs, which a
 * bulk run or `members each` requires only for an input file that is a
 * workbook. Apart from the writer too: in one bundle, -o xlsx would load
 * 1.2 MB instead of 670 KB (+20 ms).
 */
export const xlsxReaderApart = {
  name: 'xlsx-reader-apart',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/xlsx-sheet\.js$/ }, (args) =>
      (/[\\/]src[\\/]domain[\\/]bulk[\\/]workbook\.ts$/.test(args.importer) ? { path: './xlsx-read.cjs', external: true } : undefined));
  },
};

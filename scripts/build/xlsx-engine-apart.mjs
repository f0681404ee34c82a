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

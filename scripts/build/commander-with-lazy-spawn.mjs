// An esbuild plugin for scripts/build.mjs: commander bundled with a child_process loaded when it spawns.

/**
 * commander requires child_process at its top, for executable subcommands,
 * which members does not have: loading it (with net, dgram and streams) cost
 * every run, --help too, 3 ms. In the bundle commander gets a spawn that
 * loads child_process when called.
 */
export const commanderWithLazySpawn = {
  name: 'commander-with-lazy-spawn',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:child_process$/ }, (args) =>
      (/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-spawn' } : undefined));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-spawn' }, () => ({
      contents: "exports.spawn = (...args) => require('node:child_process').spawn(...args);\n",
      loader: 'js',
    }));
  },
};

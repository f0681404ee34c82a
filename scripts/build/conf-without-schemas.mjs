// An esbuild plugin for scripts/build.mjs: conf bundled without the modules of the options members does not use.

/**
 * conf imports a JSON-schema validator (ajv, ajv-formats) and semver at its
 * top, for its `schema` and `migrations` options, which src/config/store.ts
 * does not use: evaluating them cost every API command 40 ms (a third of a
 * `node -e 0`) just to read the config file. In the bundle they are replaced
 * by stubs that throw if conf ever needs them (e2e tests run the bundle).
 */
const UNUSED_BY_CONF = {
  'ajv/dist/2020.js': 'export class Ajv2020 { constructor() { unbundled(); } }',
  'ajv-formats': 'export default { default: unbundled };',
  semver: 'export default { eq: unbundled, clean: unbundled, satisfies: unbundled, lte: unbundled, gt: unbundled };',
};

export const confWithoutSchemas = {
  name: 'conf-without-schemas',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) =>
      (/[\\/]node_modules[\\/]conf[\\/]/.test(args.importer) ? { path: args.path, namespace: 'unused-by-conf' } : undefined));
    esbuild.onLoad({ filter: /.*/, namespace: 'unused-by-conf' }, (args) => ({
      contents: `function unbundled() {\n  throw new Error('conf: ${args.path} is not bundled; conf schema and migrations options are unsupported (scripts/build/conf-without-schemas.mjs)');\n}\n${UNUSED_BY_CONF[args.path]}\n`,
      loader: 'js',
    }));
  },
};

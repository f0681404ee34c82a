/** Injected by the bundler (scripts/build.mjs) and by vitest.config.ts. */
declare const __MEMBERS_VERSION__: string;

/**
 * The end-to-end tests spawn bin/members.js, which runs dist/: build it once
 * before any test file, so that `npx vitest run` alone never tests a stale
 * bundle (esbuild takes under a second).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildOnce(): void {
  const build = fileURLToPath(new URL('../scripts/build.mjs', import.meta.url));
  execFileSync(process.execPath, [build], { stdio: 'inherit' });
}

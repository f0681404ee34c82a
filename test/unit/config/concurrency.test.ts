import Conf from 'conf';
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openProfileStore } from '../../../src/config/store.js';

const fixture = fileURLToPath(new URL('fixtures/save-profiles.mjs', import.meta.url));
let tmp: string;
let bundle: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'members-'));
  bundle = path.join(tmp, 'store.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../../../src/config/store.ts', import.meta.url))],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
    // conf's CommonJS dependencies call require().
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const run = (...args: string[]) =>
  new Promise<number | null>((resolve, reject) => {
    fork(fixture, args, { stdio: 'inherit' }).on('error', reject).on('exit', resolve);
  });

it('keeps every profile when 8 processes save at the same time', async () => {
  const dir = path.join(tmp, 'config');
  const processes = 8;
  const perProcess = 25;
  const codes = await Promise.all(Array.from({ length: processes }, (_, p) => run(bundle, dir, `p${p}`, String(perProcess))));
  expect(codes).toEqual(Array(processes).fill(0));

  const store = openProfileStore(dir, Conf);
  const names = store.list().map(([name]) => name);
  expect(names).toHaveLength(processes * perProcess);
  expect(store.get('p3-7')).toEqual({ base_url: 'https://p3.example.com', token: 'token-p3-7' });
  // Exactly one process saved first and made its profile active.
  expect(names).toContain(store.active());
  expect(fs.readdirSync(dir)).toEqual(['config.json']);
});

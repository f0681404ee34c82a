/**
 * The update notice (issue 31): on a terminal, a run tells what the check an
 * earlier run started in the background found, once a day, on one line of
 * stderr after its output; never off a terminal, in CI or with
 * MEMBERS_NO_UPDATE_NOTIFIER; and a registry that never answers never holds a
 * run up. Against a registry of the test's own (MEMBERS_UPDATE_REGISTRY), on a
 * pseudo-terminal (util-linux `script`), with the cache in a temporary XDG_CACHE_HOME.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_SCRIPT, run, runInTerminal, tempDir, useSandboxProcess } from './harness.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const NOTICE = `A new release of members is available: ${VERSION} → 9.9.9 (npm install -g members-cli)`;

interface FakeRegistry {
  url: string;
  requests: string[];
  /** Requests whose connection closed without an answer (the asker gave up). */
  abandoned: number;
  close(): Promise<void>;
}

/** An npm registry that knows members-cli at 9.9.9, or (`silent`) one that takes every request and never answers. */
async function fakeRegistry(silent = false): Promise<FakeRegistry> {
  const registry = { requests: [] as string[], abandoned: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    registry.requests.push(`${req.method} ${req.url}`);
    if (silent) {
      res.on('close', () => registry.abandoned++);
      return;
    }
    if (req.url !== '/members-cli') return void res.writeHead(404).end('{}');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ name: 'members-cli', 'dist-tags': { latest: '9.9.9' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...registry,
    get requests() { return registry.requests; },
    get abandoned() { return registry.abandoned; },
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Resolves once `check` holds (the background check has written its state); the test's timeout bounds the wait. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

const sandbox = useSandboxProcess([], { enabled: HAS_SCRIPT });
let registry: FakeRegistry;
beforeAll(async () => {
  registry = await fakeRegistry();
});
afterAll(() => registry.close());

/** A run's environment: the sandbox, a cache of its own, the fake registry, and the notice not turned off (harness.ts turns it off). */
function noticeEnv(cache: string, extra: Record<string, string | undefined> = {}, registryUrl = registry.url) {
  return { ...sandbox.env, XDG_CACHE_HOME: cache, MEMBERS_UPDATE_REGISTRY: registryUrl, MEMBERS_NO_UPDATE_NOTIFIER: undefined, MEMBERS_PAGER: '', ...extra };
}
const statePath = (cache: string) => join(cache, 'members', 'update-check.json');
const state = (cache: string) => (existsSync(statePath(cache)) ? JSON.parse(readFileSync(statePath(cache), 'utf8')) as Record<string, string> : undefined);
/** A check two days old that found 9.9.9, its notice not shown yet. */
function pendingNotice(cache: string) {
  mkdirSync(join(cache, 'members'), { recursive: true });
  writeFileSync(statePath(cache), JSON.stringify({ checked_at: new Date(Date.now() - 48 * 3600_000).toISOString(), latest: '9.9.9' }));
}
const notices = (output: string) => output.split(/\r?\n/).filter((line) => line.includes('A new release of members'));

describe.skipIf(!HAS_SCRIPT)('the update notice', () => {
  it('the first run checks in the background and tells nothing; the next tells once, after its output; the rest of the day, nothing', async () => {
    const cache = tempDir('members-update-');
    const first = await runInTerminal(['products', 'list'], { env: noticeEnv(cache) });
    expect(first.code).toBe(0);
    expect(notices(first.output)).toEqual([]);
    await until(() => state(cache)?.latest === '9.9.9');
    expect(registry.requests).toContain('GET /members-cli');

    const second = await runInTerminal(['products', 'list'], { env: noticeEnv(cache) });
    expect(second.code).toBe(0);
    expect(notices(second.output)).toEqual([NOTICE]);
    // After the command's output, as gh prints it.
    expect(second.output.indexOf(NOTICE)).toBeGreaterThan(second.output.lastIndexOf('│'));

    const third = await runInTerminal(['products', 'list'], { env: noticeEnv(cache, { MEMBERS_DEBUG: '1' }) });
    expect(third.code).toBe(0);
    expect(notices(third.output)).toEqual([]);
    // Checked less than a day ago: no check started.
    expect(third.output).toMatch(/debug: update notice: nothing to tell; last checked \S+Z/);
  });

  it.each([
    ['with CI set', { CI: '1' }, 'CI is set'],
    ['with MEMBERS_NO_UPDATE_NOTIFIER=1', { MEMBERS_NO_UPDATE_NOTIFIER: '1' }, 'MEMBERS_NO_UPDATE_NOTIFIER is set'],
    ['with --quiet', { argv: '--quiet' }, '--quiet'],
  ])('stays silent %s, and neither checks nor records anything', async (_name, extra, why) => {
    const cache = tempDir('members-update-');
    pendingNotice(cache);
    const before = readFileSync(statePath(cache), 'utf8');
    const { argv, ...env } = extra as Record<string, string>;
    const { code, output } = await runInTerminal(['products', 'list', ...(argv ? [argv] : [])], { env: noticeEnv(cache, { ...env, MEMBERS_DEBUG: '1' }) });
    expect(code).toBe(0);
    expect(notices(output)).toEqual([]);
    expect(output).toContain(`debug: update notice: off (${why})`);
    expect(readFileSync(statePath(cache), 'utf8')).toBe(before);
    // The same state at a terminal without it tells.
    expect(notices((await runInTerminal(['products', 'list'], { env: noticeEnv(cache) })).output)).toEqual([NOTICE]);
  });

  it('stays silent off a terminal (stderr a pipe)', async () => {
    const cache = tempDir('members-update-');
    pendingNotice(cache);
    const before = readFileSync(statePath(cache), 'utf8');
    const { code, stderr } = await run(['products', 'list'], { env: noticeEnv(cache, { MEMBERS_DEBUG: '1' }) });
    expect(code).toBe(0);
    expect(notices(stderr)).toEqual([]);
    expect(stderr).toContain('debug: update notice: off (stderr is not a terminal)');
    expect(readFileSync(statePath(cache), 'utf8')).toBe(before);
  });

  it('is not shown by --version, which answers before the program loads', async () => {
    const cache = tempDir('members-update-');
    pendingNotice(cache);
    const { code, output } = await runInTerminal(['--version'], { env: noticeEnv(cache) });
    expect(code).toBe(0);
    expect(output).toContain(`members ${VERSION}`);
    expect(notices(output)).toEqual([]);
  });

  it.each([
    ['the root --help at a terminal not 80 columns wide (the program prints it, not bin)', ['--help']],
    ['a command\'s --help', ['students', 'grant', '--help']],
    ['help TOPIC', ['help', 'environment']],
    ['version with another word', ['version', '--no-color']],
    ['completion SHELL with another word', ['completion', 'bash', '--no-color']],
  ])('is not shown after %s', async (_name, args) => {
    const cache = tempDir('members-update-');
    pendingNotice(cache);
    const before = readFileSync(statePath(cache), 'utf8');
    const { code, output } = await runInTerminal(args, { env: noticeEnv(cache, { MEMBERS_DEBUG: '1' }), columns: 120 });
    expect(code).toBe(0);
    expect(notices(output)).toEqual([]);
    expect(output).toContain('debug: update notice: off (help, version or completion)');
    expect(readFileSync(statePath(cache), 'utf8')).toBe(before);
  });

  it('a registry that never answers does not hold the run up: it ends while the check still waits, and the check gives up on its own', async () => {
    const silent = await fakeRegistry(true);
    try {
      const cache = tempDir('members-update-');
      const { code, output } = await runInTerminal(['products', 'list'], { env: noticeEnv(cache, {}, silent.url) });
      expect(code).toBe(0);
      expect(output).toContain('│');
      // The run has ended; the check it started has not given up yet (it would have, had the run waited for it).
      expect(silent.abandoned).toBe(0);
      await until(() => state(cache) !== undefined);
      expect(silent.requests).toEqual(['GET /members-cli']);
      expect(silent.abandoned).toBe(1);
      // Recorded as a check without an answer: asked again tomorrow, nothing to tell.
      expect(state(cache)).toEqual({ checked_at: expect.stringMatching(/Z$/) });
    } finally {
      await silent.close();
    }
  });
});

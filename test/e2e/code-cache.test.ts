/**
 * bin/members.js compiles the program with a V8 code cache kept in the
 * user's cache directory: written by the first run that works, used by the
 * next, replaced when V8 refuses it, never a reason for a command to fail.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_SCRIPT, run, runInTerminal, sandboxGet, startSandbox, tempDir, type SandboxProcess } from './harness.js';

const cacheFiles = (home: string) => {
  try {
    return readdirSync(join(home, 'members'));
  } catch {
    return [];
  }
};

/** Runs `body` against a sandbox started with `args`, the CLI's cache in a fresh directory. */
async function withSandbox(
  args: string[],
  body: (context: { sandbox: SandboxProcess; home: string; env: Record<string, string> }) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox(args);
  try {
    const home = tempDir('members-cache-');
    await body({ sandbox, home, env: { ...sandbox.env, XDG_CACHE_HOME: home } });
  } finally {
    await sandbox.stop();
  }
}

describe('the code cache', () => {
  it('is written once by a run that worked, private to the user, then used as it is', async () => {
    const home = tempDir('members-cache-');
    const first = await run(['students', '--help'], { env: { XDG_CACHE_HOME: home } });
    expect(first.code).toBe(0);
    const files = cacheFiles(home);
    expect(files).toEqual([expect.stringMatching(new RegExp(`^code-cache-[0-9a-f]{16}-${process.version}-${process.arch}-help\\.bin$`))]);
    const file = join(home, 'members', files[0] as string);
    if (process.platform !== 'win32') {
      expect(statSync(join(home, 'members')).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    const written = statSync(file).mtimeMs;

    const second = await run(['students', '--help'], { env: { XDG_CACHE_HOME: home } });
    expect(second).toEqual(first);
    expect(statSync(file).mtimeMs).toBe(written);
  });

  it('a cache V8 refuses (garbage, another build) is replaced, and the command works all the same', async () => {
    const home = tempDir('members-cache-');
    const first = await run(['students', '--help'], { env: { XDG_CACHE_HOME: home } });
    const file = join(home, 'members', cacheFiles(home)[0] as string);
    writeFileSync(file, 'members-code-cache-4\u0000\u0000\u0000\u0000not a code cache');
    const again = await run(['students', '--help'], { env: { XDG_CACHE_HOME: home } });
    expect(again).toEqual(first);
    expect(readFileSync(file).length).toBeGreaterThan(1000);
  });

  it('a failed run, NODE_DISABLE_COMPILE_CACHE=1 and an unusable cache directory write nothing and change nothing else', async () => {
    const failed = tempDir('members-cache-');
    const usage = await run(['students', 'get'], { env: { XDG_CACHE_HOME: failed } });
    expect(usage.code).toBe(2);
    expect(cacheFiles(failed)).toEqual([]);

    const disabled = tempDir('members-cache-');
    expect((await run(['students', '--help'], { env: { XDG_CACHE_HOME: disabled, NODE_DISABLE_COMPILE_CACHE: '1' } })).code).toBe(0);
    expect(cacheFiles(disabled)).toEqual([]);

    // A file where the directory should be: the run still succeeds.
    const blocked = tempDir('members-cache-');
    writeFileSync(join(blocked, 'members'), '');
    const help = await run(['students', '--help'], { env: { XDG_CACHE_HOME: blocked } });
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
  });

  it('is written again by a run that went further than the one that wrote it (the local history, then an API call), and only then', async () => {
    await withSandbox(['--students', '5'], async ({ home, env }) => {
      expect((await run(['history'], { env })).code).toBe(0);
      const file = join(home, 'members', cacheFiles(home)[0] as string);
      const byHistory = readFileSync(file);

      expect((await run(['products', 'list', '-o', 'json'], { env })).code).toBe(0);
      const byList = readFileSync(file);
      // More of the program compiled: a larger cache, and a greater weight in its header.
      expect(byList.length).toBeGreaterThan(byHistory.length);
      expect(byList.readUInt32LE(20)).toBeGreaterThan(byHistory.readUInt32LE(20));

      expect((await run(['history'], { env })).code).toBe(0);
      expect(readFileSync(file).equals(byList)).toBe(true);
      // Help keeps a small cache of its own, beside it.
      expect((await run(['products', '--help'], { env })).code).toBe(0);
      expect(cacheFiles(home).sort()).toEqual([basename(file), basename(file).replace(/\.bin$/, '-help.bin')].sort());
      expect(readFileSync(file).equals(byList)).toBe(true);
      // `members mcp` runs a bundle of its own (dist/mcp.cjs), with a cache of its own; so does the MCP SDK's bundle.
      // Both are read by the next `members mcp`.
      expect((await run(['mcp', '--check', '-o', 'json'], { env })).code).toBe(0);
      const cacheOf = (prefix: string) => expect.stringMatching(new RegExp(`^${prefix}-[0-9a-f]{16}-${process.version}-${process.arch}\\.bin$`));
      expect(cacheFiles(home).sort()).toEqual([basename(file).replace(/\.bin$/, '-help.bin'), basename(file), cacheOf('mcp-cache'), cacheOf('mcp-sdk-cache')]);
      expect(readFileSync(file).equals(byList)).toBe(true);
      const again = await run(['mcp', '--check', '-o', 'json'], { env: { ...env, MEMBERS_DEBUG: '1' } });
      expect(again.stderr).toMatch(/^debug: code cache: \S+\/mcp-cache-\w+-\S+\.bin: used$/m);
      expect(again.stderr).toMatch(/^debug: code cache: \S+\/mcp-sdk-cache-\w+-\S+\.bin: used$/m);
      // The whole program runs `members mcp` after a global option; its runs keep a cache of their own, beside the commands'.
      expect((await run(['-q', 'mcp', '--check', '-o', 'json'], { env })).code).toBe(0);
      expect(cacheFiles(home)).toContain(basename(file).replace(/\.bin$/, '-mcp.bin'));
      expect(readFileSync(file).equals(byList)).toBe(true);
    });
  });

  // Weighing is the only rule: a GET after the history compiles half again as much as it did.
  it('a GET after the history writes it again, and a second GET leaves it', async () => {
    await withSandbox(['--students', '3'], async ({ sandbox, home, env }) => {
      const { body } = await sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/api/v1/students?per_page=1');
      const get = ['students', 'get', body.data[0]?.id as string, '-o', 'json'];
      expect((await run(get, { env })).code).toBe(0); // the config directory used, as on a user's machine
      rmSync(join(home, 'members'), { recursive: true });
      expect((await run(['history'], { env })).code).toBe(0);
      const file = join(home, 'members', cacheFiles(home)[0] as string);
      const byHistory = readFileSync(file);
      expect((await run(get, { env })).code).toBe(0);
      const byGet = readFileSync(file);
      expect(byGet.readUInt32LE(20)).toBeGreaterThan(byHistory.readUInt32LE(20) * 1.1);
      expect((await run(get, { env })).code).toBe(0);
      expect(readFileSync(file).equals(byGet)).toBe(true);
    });
  });

  // A long list holds V8's young generation with a V8 flag (src/lib/young-generation.ts), and V8 refuses a cache
  // written under other flags than the reading start's: bin puts the flag back before it writes.
  it('written by a long list (the young generation held), is used by the next start as it is', async () => {
    await withSandbox(['--students', '4000'], async ({ home, env }) => {
      const list = await run(['students', 'list', '--all', '-o', 'ndjson'], { env });
      expect(list.code).toBe(0);
      expect(list.stdout.split('\n').filter(Boolean)).toHaveLength(4000);
      const file = join(home, 'members', cacheFiles(home)[0] as string);
      const byList = readFileSync(file);
      // A shorter run: it rewrites the cache only if V8 refused it.
      expect((await run(['history'], { env })).code).toBe(0);
      expect(readFileSync(file).equals(byList)).toBe(true);
    });
  });

  // Node 20 loses a vm script's dynamic-import callback when it comes from a code cache: the
  // spinner's lazy import('node:readline') failed on every run at a terminal after the first.
  it.skipIf(!HAS_SCRIPT)('a run at a terminal from the cache loads what it loads lazily (the spinner)', async () => {
    const home = tempDir('members-cache-');
    expect((await run(['history'], { env: { XDG_CACHE_HOME: home, MEMBERS_CONFIG_DIR: home } })).code).toBe(0);
    expect(cacheFiles(home)).toHaveLength(1);
    const sandbox = await startSandbox(['--students', '3']);
    try {
      const { code, output } = await runInTerminal(['students', 'list', '--no-color'], { env: { ...sandbox.env, XDG_CACHE_HOME: home } });
      expect(output).not.toContain('error');
      expect(code).toBe(0);
      expect(output).toContain('Fetching students');
      expect(output).toMatch(/│ NAME +│ E-MAIL/);
    } finally {
      await sandbox.stop();
    }
  });

  it('a cache without its header (an older members) is replaced; the caches of other builds of this Node are removed once a week old', async () => {
    const home = tempDir('members-cache-');
    mkdirSync(join(home, 'members'));
    const old = join(home, 'members', `code-cache-0123456789abcdef-${process.version}-${process.arch}.bin`);
    const otherNode = join(home, 'members', `code-cache-0123456789abcdef-v0.0.0-${process.arch}.bin`);
    // Another build in use beside this one (a global install and a project's): removing it would make both rewrite theirs on every run.
    const sideBySide = `code-cache-fedcba9876543210-${process.version}-${process.arch}.bin`;
    writeFileSync(old, 'an older build');
    const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    utimesSync(old, monthAgo, monthAgo);
    writeFileSync(otherNode, 'another Node');
    writeFileSync(join(home, 'members', sideBySide), 'a build in use');
    expect((await run(['students', '--help'], { env: { XDG_CACHE_HOME: home } })).code).toBe(0);
    const files = cacheFiles(home);
    expect(files).toHaveLength(3);
    expect(files).toContain('code-cache-0123456789abcdef-v0.0.0-' + process.arch + '.bin');
    expect(files).toContain(sideBySide);
    const current = files.find((name) => !name.includes('0123456789abcdef') && name !== sideBySide) as string;
    expect(readFileSync(join(home, 'members', current)).toString('latin1', 0, 20)).toBe('members-code-cache-4');
  });

  it('the bundle holds no import(): bin/members.js runs it as a vm script without a dynamic-import callback', () => {
    const bundle = readFileSync(new URL('../../dist/main.cjs', import.meta.url), 'utf8');
    expect(bundle.match(/\bimport\(/g) ?? []).toEqual([]);
  });
  it('a cache whose bytes were altered in place (same length, same header) is refused by its checksum and replaced: V8 itself would crash on it', async () => {
    const home = tempDir('members-cache-');
    expect((await run(['students', '--help'], { env: { XDG_CACHE_HOME: home } })).code).toBe(0);
    const file = join(home, 'members', cacheFiles(home)[0] as string);
    const written = readFileSync(file);
    const damaged = Buffer.from(written);
    for (let i = 64; i < damaged.length; i += 997) damaged[i] = (damaged[i] as number) ^ 0xff;
    writeFileSync(file, damaged);
    const again = await run(['students', '--help'], { env: { XDG_CACHE_HOME: home } });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(readFileSync(file).equals(damaged)).toBe(false);
    expect(readFileSync(file).length).toBeGreaterThan(1000);
  });
});

/**
 * A code cache is code: V8 checks only the source's length, its flags and its
 * own checksum, all of which whoever writes the file can match. `plant` writes
 * what an attacker would: the cache of another script of the bundle's length,
 * which writes `marker` when it runs.
 */
function plant(file: string, marker: string): void {
  const source = readFileSync(new URL('../../dist/main.cjs', import.meta.url), 'latin1');
  // As bin/code-cache.js wraps the bundle.
  const length = `(function (exports, require, module, __filename, __dirname) {${source}\n})`.length;
  const payload = `(function (exports, require) { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); })`;
  const script = `${payload}/*${' '.repeat(length - payload.length - 4)}*/`;
  // Compiled in a Node of its own under bin's V8 flags (V8 checks them), its function compiled too.
  const generator = `
    const v8 = require('node:v8');
    for (const flag of ['--liftoff-only', '--verify-snapshot-checksum']) v8.setFlagsFromString(flag);
    const script = new (require('node:vm').Script)(require('node:fs').readFileSync(0, 'latin1'));
    script.runInThisContext()({}, () => ({ writeFileSync() {} }));
    const header = Buffer.alloc(24);
    header.write('members-code-cache-4');
    header.writeUInt32LE(1e9, 20);
    require('node:fs').writeFileSync(${JSON.stringify(file)}, Buffer.concat([header, script.createCachedData()]));`;
  const made = spawnSync(process.execPath, ['-e', generator], { input: script });
  expect(made.status, String(made.stderr)).toBe(0);
}

describe.skipIf(process.platform === 'win32')('a code cache someone else could have written', () => {
  const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('warning:'));
  const cacheName = (home: string) => {
    const buildId = /\/\/ build-id: (\w+)\n$/.exec(readFileSync(new URL('../../dist/main.cjs', import.meta.url), 'latin1'))?.[1] as string;
    return join(home, 'members', `code-cache-${buildId}-${process.version}-${process.arch}.bin`);
  };
  const setUp = (mode: number) => {
    const home = tempDir('members-cache-');
    mkdirSync(join(home, 'members'), { mode });
    chmodSync(join(home, 'members'), mode);
    const marker = join(home, 'planted-code-ran');
    plant(cacheName(home), marker);
    return { home, marker, env: { XDG_CACHE_HOME: home, MEMBERS_CONFIG_DIR: join(home, 'config') } };
  };

  it('is run by V8 from a directory of the user\'s own: the planted cache is real', async () => {
    const { marker, env } = setUp(0o700);
    await run(['history'], { env });
    expect(existsSync(marker)).toBe(true);
  });

  it('in a group-writable directory, is not loaded: the command works, the user is told once and the directory left alone', async () => {
    const { home, marker, env } = setUp(0o770);
    const dir = join(home, 'members');
    const first = await run(['history'], { env });
    expect(existsSync(marker)).toBe(false);
    expect(first.code).toBe(0);
    expect(warnings(first.stderr)).toEqual([`warning: the code cache directory ${dir} can be written by other users (mode 0770), who could put code in it `
      + `that members would run: members runs without it; run \`chmod 700 ${dir}\` (said once)`]);
    const second = await run(['history'], { env: { ...env, MEMBERS_DEBUG: '1' } });
    expect(existsSync(marker)).toBe(false);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`debug: code cache: ${dir}: not used: the directory can be written by other users (mode 0770)\n`);
    expect(warnings(second.stderr)).toEqual([]);
    expect(cacheFiles(home)).toEqual([basename(cacheName(home))]);
  });

  it('a cache file others may write, in the user\'s own directory, is not loaded and is replaced by one of the user\'s own', async () => {
    const { home, marker, env } = setUp(0o700);
    const file = cacheName(home);
    chmodSync(file, 0o666);
    const first = await run(['history'], { env });
    expect(existsSync(marker)).toBe(false);
    expect(first.code).toBe(0);
    expect(warnings(first.stderr)).toEqual([`warning: the code cache ${file} can be written by other users (mode 0666), who could put code in it `
      + 'that members would run: members did not use it, and replaces it with its own (said once)']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = await run(['history'], { env: { ...env, MEMBERS_DEBUG: '1' } });
    expect(second.stderr).toContain(`debug: code cache: ${file}: used\n`);
  });

  it.skipIf(process.getuid?.() !== 0)('in a directory of another user, is not loaded (as root: one that nobody owns)', async () => {
    const { home, marker, env } = setUp(0o700);
    chownSync(join(home, 'members'), 65534, 65534);
    const result = await run(['history'], { env });
    expect(existsSync(marker)).toBe(false);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`the code cache directory ${join(home, 'members')} belongs to another user (uid 65534)`);
    expect(result.stderr).toContain('set XDG_CACHE_HOME to a directory of your own (said once)');
  });
});

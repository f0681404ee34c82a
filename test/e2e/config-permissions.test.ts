/**
 * The config file through the built binary (`npm run build` first): a broken
 * or hand-edited file is a clear error naming it (exit 2) and is never
 * rewritten; a file the user may not read or write is the same kind of error;
 * 16 concurrent `auth login`s lose no profile; the file stays 0600.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, tempDir, type RunResult } from './harness.js';

let root: string;
beforeAll(() => {
  root = tempDir('members-config-');
  // Readable by the unprivileged user of the permission tests below.
  chmodSync(root, 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
function configDir(content?: string): { dir: string; file: string } {
  const dir = join(root, `c${dirs++}`);
  mkdirSync(dir, { mode: 0o700 });
  const file = join(dir, 'config.json');
  if (content !== undefined) writeFileSync(file, content, { mode: 0o600 });
  return { dir, file };
}

const members = (dir: string, args: string[], env: Record<string, string> = {}, input?: string) =>
  run(args, { env: { MEMBERS_CONFIG_DIR: dir, ...env }, input });

/** Commands that read the config, write it, or both. */
const COMMANDS: Array<{ args: string[]; env?: Record<string, string> }> = [
  { args: ['auth', 'status', '--offline'] },
  { args: ['auth', 'status', '-o', 'json'] },
  { args: ['auth', 'login', '--profile', 'new', '--base-url', 'https://new.example.com', '--no-verify'], env: { MEMBERS_TOKEN: 'tok_new_0123456789' } },
  { args: ['auth', 'switch', 'work'] },
  { args: ['auth', 'logout', '--profile', 'work'] },
  { args: ['auth', 'token'] },
  { args: ['students', 'list'] },
  { args: ['students', 'list'], env: { MEMBERS_BASE_URL: 'http://127.0.0.1:9', MEMBERS_TOKEN: 'tok_env_0123456789' } },
];

const TOKEN = 'tok_CONFIG_SECRET_5f4e3d2c1b';
const BROKEN: Array<[string, string, RegExp]> = [
  ['truncated JSON', '{"profiles": {', /is not valid JSON \(line 1, column 15\); fix or remove it$/],
  ['truncated after a token', `{"active":"work","profiles":{"work":{"base_url":"https://w.example.com","token":"${TOKEN}"}},`, /is not valid JSON/],
  ['an empty file', '', /is not valid JSON; fix or remove it$/],
  ['a number for active', `{"active": 5, "profiles": {"work": {"base_url": "https://w.example.com", "token": "${TOKEN}"}}}`,
    /has an unexpected shape \(active: Invalid input: expected string, received number\); fix or remove it$/],
  ['a number for a base URL', `{"profiles": {"work": {"base_url": 3, "token": "${TOKEN}"}}}`,
    /has an unexpected shape \(profiles\.work\.base_url: Invalid input: expected string, received number\)/],
  ['a token that is an object', `{"profiles": {"work": {"base_url": "https://w.example.com", "token": {"value": "${TOKEN}"}}}}`,
    /has an unexpected shape \(profiles\.work\.token: Invalid input: expected string, received object\)/],
  ['profiles as an array', '{"profiles": [{"base_url": "https://w.example.com"}]}', /\(profiles: Invalid input: expected record, received array\)/],
  ['a profile as a string', '{"profiles": {"work": "https://w.example.com"}}', /\(profiles\.work: Invalid input: expected object, received string\)/],
  ['a top-level array', '[]', /\(\(top level\): Invalid input: expected object, received array\)/],
  ['null', 'null', /\(\(top level\): Invalid input: expected object, received null\)/],
];

describe('a broken config file', () => {
  it.each(BROKEN)('%s: every command fails with exit 2 naming the file, and leaves it as it was', async (_what, content, message) => {
    const { dir, file } = configDir(content);
    for (const { args, env } of COMMANDS) {
      const result = await members(dir, args, env);
      const first = result.stderr.split('\n')[0] ?? '';
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(first.startsWith(`error: config file ${file} `)).toBe(true);
      expect(first).toMatch(message);
      // No stack trace, and never the token the file holds.
      expect(result.stderr).not.toMatch(/^ {4}at /m);
      expect(result.stderr).not.toContain(TOKEN);
      expect(readFileSync(file, 'utf8')).toBe(content);
    }
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('says the same in the JSON error line with -o json', async () => {
    const { dir, file } = configDir('{"profiles": {');
    const result = await members(dir, ['auth', 'status', '-o', 'json']);
    const message = `config file ${file} is not valid JSON (line 1, column 15); fix or remove it`;
    expect(result.stderr).toBe(`error: ${message}\n${JSON.stringify({ error: { exit_code: 2, status: null, message } })}\n`);
  });
});

describe('a hand-edited config file', () => {
  const HAND_EDITED = {
    active: 'work',
    editor_note: 'added by hand',
    profiles: {
      work: { base_url: 'https://w.example.com', token: 'tok_work_0123456789', comment: 'keep me' },
      home: { base_url: 'https://h.example.com' },
    },
  };

  it('keeps keys it does not know, and every other profile, when a profile is added', async () => {
    const { dir, file } = configDir(JSON.stringify(HAND_EDITED, null, 2));
    const login = await members(dir, ['auth', 'login', '--profile', 'new', '--base-url', 'https://n.example.com', '--no-verify'], { MEMBERS_TOKEN: 'tok_new_0123456789' });
    expect(login.code).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as typeof HAND_EDITED & { profiles: Record<string, unknown> };
    expect(saved).toEqual({
      ...HAND_EDITED,
      profiles: { ...HAND_EDITED.profiles, new: { base_url: 'https://n.example.com', token: 'tok_new_0123456789' } },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('concurrent logins', () => {
  it('16 processes of `auth login --no-verify` at once lose no profile; the file stays valid and 0600', async () => {
    const { dir, file } = configDir();
    const count = 16;
    const results = await Promise.all(Array.from({ length: count }, (_, i) => members(
      dir, ['auth', 'login', '--profile', `p${i}`, '--base-url', `https://p${i}.example.com`, '--no-verify'], { MEMBERS_TOKEN: `tok_p${i}_0123456789` },
    )));
    expect(results.map((r) => ({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }))).toEqual(Array(count).fill({ code: 0, stderr: '' }));
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { active: string; profiles: Record<string, { base_url: string; token: string }> };
    expect(Object.keys(saved.profiles).sort()).toEqual(Array.from({ length: count }, (_, i) => `p${i}`).sort());
    for (let i = 0; i < count; i++) {
      expect(saved.profiles[`p${i}`]).toEqual({ base_url: `https://p${i}.example.com`, token: `tok_p${i}_0123456789` });
    }
    // Exactly one of them came first and became active.
    expect(Object.keys(saved.profiles)).toContain(saved.active);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['config.json']);
  }, 60_000);

  it('warns when other users can read a config holding tokens, or write its directory; 0600 in 0700 says nothing', async () => {
    const profile = JSON.stringify({ active: 'w', profiles: { w: { base_url: 'http://127.0.0.1:1', token: 'tok_w_0123456789' } } });
    const { dir, file } = configDir(profile);
    chmodSync(file, 0o644);
    chmodSync(dir, 0o777);
    const exposed = await members(dir, ['students', 'get', 'x', '--retries', '0']);
    const warnings = exposed.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      `warning: the config file ${file} holds API tokens and other users can read it (mode 0644): run \`chmod 600 ${file}\``,
      `warning: the config directory ${dir} can be written by other users (mode 0777), who could replace the config: run \`chmod 700 ${dir}\``,
    ]);
    expect(exposed.code).toBe(6); // the command still runs: nothing listens on port 1

    // The report takes its two tokens from the same file: the same warnings, before anything is sent.
    const report = JSON.stringify({ active: 'w', profiles: { w: { base_url: 'http://127.0.0.1:1', developer_token: 'dev_w_0123456789', platform_token: 'plat_w_0123456789' } } });
    writeFileSync(file, report);
    const reported = await members(dir, ['report', 'engaged-courses', '--retries', '0']);
    expect(reported.stderr.split('\n').filter((line) => line.startsWith('warning:') && line.includes('other users'))).toEqual(warnings);
    expect(reported.code).toBe(6);

    chmodSync(file, 0o600);
    chmodSync(dir, 0o700);
    expect((await members(dir, ['students', 'get', 'x', '--retries', '0'])).stderr).not.toContain('warning:');
  });

  it('creates a missing config directory with mode 0700', async () => {
    const dir = join(root, 'created', 'members');
    mkdirSync(join(root, 'created'));
    const login = await members(dir, ['auth', 'login', '--base-url', 'https://x.example.com', '--no-verify'], { MEMBERS_TOKEN: 'tok_x_0123456789' });
    expect(login.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });
});

/**
 * A file the user may not read or write. Root reads everything, so as root
 * the binary runs as `nobody` (uid 65534) against root's files; otherwise the
 * modes are taken away.
 */
describe('a config file the user may not read or write', () => {
  const asRoot = process.getuid?.() === 0;
  /*
   * nobody must reach the binary: a checkout under a directory only root may enter (`mktemp -d`, mode 0700)
   * is out of its reach, so it runs a copy of the package's files in a directory anyone may read.
   */
  let bin = BIN;
  beforeAll(() => {
    if (!asRoot) return;
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const copy = tempDir('members-package-');
    chmodSync(copy, 0o755);
    for (const part of ['bin', 'dist', 'package.json', 'node_modules/@napi-rs']) {
      if (existsSync(join(root, part))) cpSync(join(root, part), join(copy, part), { recursive: true });
    }
    bin = join(copy, 'bin', 'members.js');
  });

  function runAsOther(dir: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
    if (!asRoot) return members(dir, args, env);
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], {
        uid: 65534, gid: 65534, stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, HOME: root, LANG: 'C.UTF-8', MEMBERS_CONFIG_DIR: dir, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  const PROFILE = JSON.stringify({ active: 'work', profiles: { work: { base_url: 'https://w.example.com', token: 'tok_work_0123456789' } } });
  const FIX = 'make it and its directory yours (`chown`; mode 0600 for the file, 0700 for the directory), or set MEMBERS_CONFIG_DIR to another directory';

  it('cannot read it: exit 2 naming the file and what to do, for reads and writes alike', async () => {
    const { dir, file } = configDir(PROFILE);
    chmodSync(dir, 0o755);
    if (!asRoot) chmodSync(file, 0o000);
    for (const { args, env } of COMMANDS) {
      const result = await runAsOther(dir, args, env);
      expect({ args, code: result.code, stdout: result.stdout, stderr: result.stderr.split('\n')[0] }).toEqual({
        args, code: 2, stdout: '', stderr: `error: cannot read the config file ${file}: permission denied (EACCES); ${FIX}`,
      });
    }
    chmodSync(file, 0o600);
    expect(readFileSync(file, 'utf8')).toBe(PROFILE);
  }, 60_000);

  it('cannot write in its directory: exit 2 naming the file, nothing written', async () => {
    const { dir, file } = configDir();
    chmodSync(dir, asRoot ? 0o755 : 0o555);
    const result = await runAsOther(dir, ['auth', 'login', '--base-url', 'https://x.example.com', '--no-verify'], { MEMBERS_TOKEN: 'tok_x_0123456789' });
    expect(result).toEqual({
      code: 2, stdout: '', stderr: `error: cannot write the config file ${file}: permission denied (EACCES) (on ${file}.lock); ${FIX}\n`,
    });
    chmodSync(dir, 0o700);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('cannot create its directory: a read finds no profile and creates nothing; a login exits 2 naming the directory', async () => {
    const parent = join(root, 'locked');
    mkdirSync(parent, { mode: asRoot ? 0o755 : 0o555 });
    const dir = join(parent, 'members');
    const status = await runAsOther(dir, ['auth', 'status', '--offline']);
    expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 3, stderr: expect.stringContaining('no API token') });
    const login = await runAsOther(dir, ['auth', 'login', '--base-url', 'https://x.example.com', '--no-verify'], { MEMBERS_TOKEN: 'tok_x_0123456789' });
    expect(login).toEqual({
      code: 2, stdout: '', stderr: `error: cannot read the config file ${join(dir, 'config.json')}: permission denied (EACCES) (on ${dir}); ${FIX}\n`,
    });
    expect(readdirSync(parent)).toEqual([]);
  });
});

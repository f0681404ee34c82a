/**
 * bin/members.js runs a command line that starts with `mcp` from a bundle of
 * that command alone (dist/mcp.cjs, src/entry/mcp-main.ts); any other,
 * `members -p desk mcp` included, runs the whole program. The bundle must
 * answer as the whole program does (here run in process): the same help, the
 * same errors and exit codes.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIo } from '../helpers/fake-io.js';
import { BIN, HAS_SCRIPT, baseEnv, run, runInTerminal, tempDir } from './harness.js';

describe('members mcp from its own bundle', () => {
  it('prints the help the whole program prints for it, exit 0', async () => {
    const fake = fakeIo();
    expect(await main(['mcp', '--help'], fake.io)).toBe(0);
    expect(fake.stdout()).toContain('--show-personal-data');
    expect(await run(['mcp', '--help'])).toEqual({ code: 0, stdout: fake.stdout(), stderr: '' });
  });

  it('refuses bad flags and arguments, and a profile without a base URL, with the whole program\'s errors and exit codes, in text and JSON', async () => {
    const env = { MEMBERS_CONFIG_DIR: tempDir('members-mcp-config-') };
    const cases = [['--bogus'], ['--max-rows', '0'], ['--max-rows', 'many', '-o', 'json'], ['tools'], ['--check', '-o', 'yaml'], ['--check']];
    for (const args of cases) {
      const whole = fakeIo({ env });
      const code = await main(['mcp', ...args], whole.io);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect({ args, ...await run(['mcp', ...args], { env }) }).toEqual({ args, code, stdout: '', stderr: whole.stderr() });
    }
  });

  it('checks the profile before a client connects, without connecting: a bad base URL exit 2, no token exit 3, as the whole program', async () => {
    const profiles = [
      { env: { MEMBERS_BASE_URL: 'members.example.com', MEMBERS_TOKEN: 'secret' }, code: 2 },
      { env: { MEMBERS_BASE_URL: 'http://127.0.0.1:9' }, code: 3 },
      { env: { MEMBERS_BASE_URL: 'http://127.0.0.1:9', MEMBERS_TOKEN: 'secret', HTTP_PROXY: 'not a proxy' }, code: 2 },
    ];
    for (const { env: profile, code } of profiles) {
      const env = { MEMBERS_CONFIG_DIR: tempDir('members-mcp-config-'), ...profile };
      const whole = fakeIo({ env });
      expect({ profile, code: await main(['mcp'], whole.io) }).toEqual({ profile, code });
      expect({ profile, ...await run(['mcp'], { env }) }).toEqual({ profile, code, stdout: '', stderr: whole.stderr() });
    }
  });
});

/*
 * A client's first messages get their answers before the program loads (src/entry/mcp-front.ts, bin/members.js);
 * the program then takes over, its SDK holding the client's initialize as if it had answered it.
 */
describe('members mcp\'s first answers, before the program loads', () => {
  const line = (message: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
  const INITIALIZE = line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'desk', version: '2' } } });
  const HANDSHAKE = INITIALIZE + line({ method: 'notifications/initialized' }) + line({ id: 'p', method: 'ping' }) + line({ id: 2, method: 'tools/list' });
  const profile = () => ({ MEMBERS_CONFIG_DIR: tempDir('members-mcp-config-'), MEMBERS_BASE_URL: 'http://127.0.0.1:9', MEMBERS_TOKEN: 'secret' });
  const sorted = (text: string) => text.split('\n').sort();

  /** `members ARGS` started as a client starts it, stdin left open: its answers as they come, its stderr, its exit. */
  function served(args: string[], env: Record<string, string>) {
    const child = spawn(process.execPath, [BIN, ...args], { env: baseEnv(env), stdio: 'pipe' });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const answers: string[] = [];
    const waiting: Array<{ count: number; resolve: () => void }> = [];
    createInterface({ input: child.stdout }).on('line', (text) => {
      answers.push(text);
      for (const wait of waiting.filter(({ count }) => count === answers.length)) wait.resolve();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    child.stdin.on('error', () => undefined);
    return {
      child, answers, exited,
      stderr: () => stderr,
      /** Resolves once `count` answers came. */
      answered: (count: number) => new Promise<void>((resolve) => (answers.length >= count ? resolve() : waiting.push({ count, resolve }))),
    };
  }

  it('are the whole program\'s answers, with and without --allow-writes, and the SDK answers what follows', async () => {
    // `members -p default mcp` runs the whole program, which answers everything with the SDK. (The client closes stdin
    // at once: the SDK then drops answers still in flight, so the last request is one it refuses at once.)
    const input = HANDSHAKE + line({ id: 3, method: 'prompts/list' });
    for (const flags of [[], ['--allow-writes', '--max-rows', '20']]) {
      const env = profile();
      const front = await run(['mcp', ...flags], { env, input });
      const whole = await run(['-p', 'default', 'mcp', ...flags], { env, input });
      expect({ flags, code: front.code, stderr: front.stderr }).toEqual({ flags, code: 0, stderr: '' });
      expect(front.stdout.split('\n')).toHaveLength(5);
      expect(front.stdout).toContain('"id":3,"error":{"code":-32601');
      expect(sorted(front.stdout)).toEqual(sorted(whole.stdout));
    }
  });

  it('a profile that cannot connect: the first answers, then its error and exit 3, with the client still connected', async () => {
    const env = { MEMBERS_CONFIG_DIR: tempDir('members-mcp-config-'), MEMBERS_BASE_URL: 'http://127.0.0.1:9' };
    const server = served(['mcp'], env);
    server.child.stdin.write(HANDSHAKE);
    expect((await server.exited).code).toBe(3);
    expect(server.answers.map((text) => Object.keys(JSON.parse(text).result))).toEqual([['protocolVersion', 'capabilities', 'serverInfo', 'instructions'], [], ['tools']]);
    expect(server.stderr()).toMatch(/^error: .*token/);
    server.child.stdin.destroy();
  });

  /** Sends `signal` to `members mcp` (both ways of starting it) once `count` answers to `input` came, the client still connected. */
  async function expectStoppedBy(signals: readonly NodeJS.Signals[], input: string, count: number) {
    const env = profile();
    for (const signal of signals) {
      for (const args of [['mcp'], ['-p', 'default', 'mcp']]) {
        const server = served(args, env);
        server.child.stdin.write(input);
        await server.answered(count);
        server.child.kill(signal);
        expect({ sent: signal, args, ...await server.exited, stderr: server.stderr() })
          .toEqual({ sent: signal, args, code: 130, signal: null, stderr: `error: ${signal}: the assistant's server stopped\n` });
        server.child.stdin.destroy();
      }
    }
  }

  it('SIGTERM, Ctrl-C or SIGHUP while the first answers wait for the client: exit 130 and the error, as the whole program', async () => {
    await expectStoppedBy(['SIGTERM', 'SIGINT', 'SIGHUP'], INITIALIZE, 1);
  });

  it('SIGTERM or Ctrl-C once the program took over, the client still connected: exit 130, as the whole program', async () => {
    // The SDK's own answer to prompts/list (it has none) says the program serves.
    await expectStoppedBy(['SIGTERM', 'SIGINT'], HANDSHAKE + line({ id: 3, method: 'prompts/list' }), 4);
  });

  it('a client that closes its end of stdout before the answers: the server ends as the whole program does, without a crash', async () => {
    const env = profile();
    const exits = [];
    for (const args of [['mcp'], ['-p', 'default', 'mcp']]) {
      const child = spawn(process.execPath, [BIN, ...args], { env: baseEnv(env), stdio: 'pipe' });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.stdout.destroy();
      child.stdin.on('error', () => undefined);
      child.stdin.end(HANDSHAKE);
      exits.push({ args, code: await exited, stderr });
    }
    expect(exits).toEqual([{ args: ['mcp'], code: 0, stderr: '' }, { args: ['-p', 'default', 'mcp'], code: 0, stderr: '' }]);
  });

  it('a command line it does not know, and a terminal, are the program\'s from the start', async () => {
    // --check lists the tools itself; a terminal is a person, who gets the profile's errors at once.
    const env = { MEMBERS_CONFIG_DIR: tempDir('members-mcp-config-'), MEMBERS_BASE_URL: 'http://127.0.0.1:9' };
    expect(await run(['mcp', '--check'], { env, input: HANDSHAKE })).toMatchObject({ code: 3, stdout: '' });
    if (HAS_SCRIPT) expect(await runInTerminal(['mcp'], { env })).toMatchObject({ code: 3, output: expect.stringMatching(/error: .*token/) });
  });
});

/**
 * Runs the CLI in-process against an undici MockAgent that refuses real
 * network and fails the test when an interceptor was never used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { MockAgent } from 'undici';
import { main } from '../../src/main.js';
import { fakeIo, type FakeIoOptions } from './fake-io.js';

export const BASE = 'https://members.example.com';
export const TOKEN = 'tok_API_SENTINEL_0123456789';
export const AUTH = { authorization: `Bearer ${TOKEN}` };

export interface MockCli {
  readonly agent: MockAgent;
  /** A fresh MEMBERS_CONFIG_DIR per test. */
  readonly configDir: string;
  /** The interceptor pool of BASE. */
  pool(): ReturnType<MockAgent['get']>;
  /** `members ARGS` with BASE and TOKEN in the environment (overridable through `io.env`). */
  cli(args: string[], io?: FakeIoOptions): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** The products list that resolves PRODUCT cells which are not ids (p1, p2…): every bulk unit test may read it once. */
export function products(pool: ReturnType<MockAgent['get']>, items = [{ id: 'p1', title: 'Yoga' }, { id: 'p2', title: 'Pilates' }, { id: 'p3', title: 'Dança' }]) {
  pool.intercept({ path: (path: string) => path.startsWith('/api/v1/products?'), method: 'GET' })
    .reply(200, { data: items, links: {}, meta: { current_page: 1, last_page: 1, per_page: 100, total: items.length } }).persist();
}

export function mockCli(): MockCli {
  let agent: MockAgent;
  let configDir: string;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    configDir = mkdtempSync(join(tmpdir(), 'members-test-'));
  });
  afterEach(async () => {
    // Persistent interceptors are a test file's background (the products list); every other one must be used.
    const unused = agent.pendingInterceptors().filter((interceptor) => !interceptor.persist);
    if (unused.length > 0) agent.assertNoPendingInterceptors();
    await agent.close();
    rmSync(configDir, { recursive: true, force: true });
  });
  return {
    get agent() {
      return agent;
    },
    get configDir() {
      return configDir;
    },
    pool: () => agent.get(BASE),
    async cli(args, io = {}) {
      const fake = fakeIo({ ...io, env: { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_CONFIG_DIR: configDir, ...io.env } });
      const code = await main(args, fake.io, { dispatcher: agent });
      return { code, stdout: fake.stdout(), stderr: fake.stderr() };
    },
  };
}

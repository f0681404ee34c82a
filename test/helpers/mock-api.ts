/**
 * An Api over an undici MockAgent, fresh for each test, that refuses real
 * network and fails the test when an interceptor was never used: for tests
 * of functions that take an Api (no main(), no Session).
 */
import { MockAgent } from 'undici';
import { afterEach, beforeEach } from 'vitest';
import { HttpApi, type Api } from '../../src/api/client.js';
import { HttpClient } from '../../src/api/transport/http.js';

export const MOCK_BASE = 'https://members.example.com';

/** A MockAgent for each test (call the getter inside the test), checked and closed after it. */
export function useMockAgent(): () => MockAgent {
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
  return () => agent;
}

/** `log`: the --verbose lines. */
export function mockApi(): { api(log?: (line: string) => void): Api; pool(): ReturnType<MockAgent['get']> } {
  const agent = useMockAgent();
  return {
    api: (log) => new HttpApi(new HttpClient({
      baseUrl: new URL(MOCK_BASE), token: 't', timeoutMs: 5_000, retries: 0, userAgent: 'test', secrets: [], dispatcher: agent(), log,
    })),
    pool: () => agent().get(MOCK_BASE),
  };
}

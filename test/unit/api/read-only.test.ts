import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Api } from '../../../src/api/client.js';
import { HttpClient } from '../../../src/api/http.js';
import { ExitCode } from '../../../src/errors.js';

const BASE = 'https://members.example.com';
let agent: MockAgent;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

const api = () => new Api(new HttpClient({
  baseUrl: new URL(BASE), token: 't', timeoutMs: 1000, retries: 0, userAgent: 'test', secrets: [], dispatcher: agent,
}));

describe('a dry run client (Api.reading)', () => {
  it('reads, and refuses POST, PUT and DELETE before anything is sent', async () => {
    agent.get(BASE).intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, { data: [] });
    const reading = api().reading();
    await expect(reading.send({ method: 'GET', path: '/api/v1/products' })).resolves.toBeDefined();
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      await expect(reading.send({ method, path: '/api/v1/students/s1/products/p1' })).rejects.toMatchObject({ exitCode: ExitCode.internal });
    }
  });
});

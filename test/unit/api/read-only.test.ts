import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/lib/errors.js';
import { mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();

describe('a dry run client (Api.reading)', () => {
  it('reads, and refuses POST, PUT and DELETE before anything is sent', async () => {
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, { data: [] });
    const reading = api().reading();
    await expect(reading.send({ method: 'GET', path: '/api/v1/products' })).resolves.toBeDefined();
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      await expect(reading.send({ method, path: '/api/v1/students/s1/products/p1' })).rejects.toMatchObject({ exitCode: ExitCode.internal });
    }
  });
});

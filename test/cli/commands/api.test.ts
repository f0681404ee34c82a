import { describe, expect, it } from 'vitest';
import { mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();

describe('api --paginate', () => {
  it('fails (exit 6) when links.next ends before the total of the first page: never a short list with exit 0', async () => {
    t.pool().intercept({ path: '/api/v1/students?per_page=2', method: 'GET' }).reply(200, {
      data: [{ id: 'a' }, { id: 'b' }],
      links: { next: 'https://members.example.com/api/v1/students?page=2' },
      meta: { current_page: 1, last_page: 3, per_page: 2, total: 5 },
    });
    // The server's link dropped per_page; it is asked for again. Its page 2 links nowhere although 5 were counted.
    t.pool().intercept({ path: '/api/v1/students?page=2&per_page=2', method: 'GET' }).reply(200, {
      data: [{ id: 'c' }, { id: 'd' }], links: { next: null }, meta: { current_page: 2, last_page: 3, per_page: 2, total: 5 },
    });
    const { code, stderr } = await t.cli(['api', '/api/v1/students', '-f', 'per_page=2', '--paginate', '--out', `${t.configDir}/students.json`]);
    expect(code).toBe(6);
    expect(stderr).toContain('read 4 records where the server announced 5');
  });
});

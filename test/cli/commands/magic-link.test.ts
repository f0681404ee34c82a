import { describe, expect, it } from 'vitest';
import { AUTH, mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();
const URL_ = 'https://members.example.com/magic/abc123';


describe('magic-link', () => {
  it('by e-mail: the e-mail endpoint, 1h by default, and the URL alone on stdout', async () => {
    t.pool().intercept({ path: '/api/v1/students/email/maria%2Bvip%40example.com/magic-link', method: 'POST', headers: AUTH, body: '{"expire_in":3600}' })
      .reply(200, { data: { expire_in: 3600, url: URL_ } });
    const { code, stdout, stderr } = await t.cli(['magic-link', 'maria+vip@example.com']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${URL_}\n`);
    expect(stderr).toBe('→ default (members.example.com)\n');
  });

  it('by document: looks the id up first; --expire-in 2h is sent as 7200 seconds; json gives {expire_in, url}', async () => {
    t.pool().intercept({ path: '/api/v1/students/document/RG%2F12345', method: 'GET', headers: AUTH }).reply(200, { data: { id: 's1' } });
    t.pool().intercept({ path: '/api/v1/students/s1/magic-link', method: 'POST', headers: AUTH, body: '{"expire_in":7200}' })
      .reply(200, { data: { expire_in: 7200, url: URL_ } });
    const { code, stdout } = await t.cli(['magic-link', 'doc:RG/12345', '--expire-in', '2h', '-o', 'json', '--quiet']);
    expect(code).toBe(0);
    expect(stdout).toBe(`{"expire_in":7200,"url":"${URL_}"}\n`);
  });

  it('refuses a bad duration before sending anything: exit 2', async () => {
    const { code, stdout, stderr } = await t.cli(['magic-link', 's1', '--expire-in', '2 weeks']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: invalid --expire-in "2 weeks": use seconds or a number with a unit, e.g. 90, 90s, 15m, 2h, 7d\n');
  });

  it('an e-mail with a "/" that the server cannot route (Laravel decodes %2F): the student is found by the list, the link asked for by id', async () => {
    const routeMiss = { message: '' };
    t.pool().intercept({ path: '/api/v1/students/email/sales%2Fbr%40example.com/magic-link', method: 'POST' }).reply(404, routeMiss);
    t.pool().intercept({ path: '/api/v1/students/email/sales%2Fbr%40example.com', method: 'GET' }).reply(404, routeMiss);
    t.pool().intercept({ path: '/api/v1/students?per_page=100&page=1', method: 'GET' })
      .reply(200, { data: [{ id: 's7', email: 'sales/br@example.com' }], links: {}, meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 } });
    t.pool().intercept({ path: '/api/v1/students/s7', method: 'GET' }).reply(200, { data: { id: 's7', email: 'sales/br@example.com' } });
    t.pool().intercept({ path: '/api/v1/students/s7/magic-link', method: 'POST', body: '{"expire_in":3600}' })
      .reply(200, { data: { expire_in: 3600, url: URL_ } });
    const { code, stdout } = await t.cli(['magic-link', 'sales/br@example.com', '--quiet']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${URL_}\n`);
  });

  it('an unknown e-mail is exit 4', async () => {
    t.pool().intercept({ path: '/api/v1/students/email/nobody%40example.com/magic-link', method: 'POST' }).reply(404, { message: 'Student not found.' });
    const { code, stdout, stderr } = await t.cli(['magic-link', 'nobody@example.com']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toContain('error: student with e-mail nobody@example.com not found (POST /api/v1/students/email/nobody%40example.com/magic-link)\n');
  });

  it('a slip of the domain: the student meant, with the command to run again; nothing else is sent, and the exit stays 4', async () => {
    t.pool().intercept({ path: '/api/v1/students/email/thais.leao21%40gmial.com/magic-link', method: 'POST' }).reply(404, { message: 'Student not found.' });
    t.pool().intercept({ path: '/api/v1/students/email/thais.leao21%40gmail.com', method: 'GET' })
      .reply(200, { data: { id: 's9', email: 'thais.leao21@gmail.com', full_name: 'Thaís Leão Simões' } });
    const { code, stdout, stderr } = await t.cli(['magic-link', 'thais.leao21@gmial.com', '--expire-in', '2h', '-o', 'json']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    const message = 'student with e-mail thais.leao21@gmial.com not found (POST /api/v1/students/email/thais.leao21%40gmial.com/magic-link)\n'
      + 'Did you mean: thais.leao21@gmail.com (Thaís Leão Simões)?';
    const rerun = 'members magic-link thais.leao21@gmail.com --expire-in 2h -o json';
    expect(stderr).toBe(`→ default (members.example.com)\nerror: ${message}\n  ${rerun}\n${JSON.stringify({ error: { exit_code: 4, status: 404, message, rerun } })}\n`);
  });
});

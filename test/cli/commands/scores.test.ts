import { describe, expect, it } from 'vitest';
import { AUTH, mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();

const SCORE = { score: 120, posts: 3, comments: 4, replies: 5 };

describe('scores get', () => {
  it('looks a reference up, then reads the scores by id', async () => {
    t.pool().intercept({ path: '/api/v1/students/reference/crm-1', method: 'GET', headers: AUTH }).reply(200, { data: { id: 's1', email: 'm@example.com' } });
    t.pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET', headers: AUTH }).reply(200, { data: SCORE });
    const { code, stdout } = await t.cli(['scores', 'get', 'ref:crm-1']);
    expect(code).toBe(0);
    expect(stdout).toBe('SCORE     120\nPOSTS     3\nCOMMENTS  4\nREPLIES   5\n');
  });

  it('encodes an id such as ../products as one segment', async () => {
    t.pool().intercept({ path: '/api/v1/students/..%2Fproducts/scores', method: 'GET' }).reply(200, { data: SCORE });
    const { code, stdout } = await t.cli(['scores', 'get', '../products', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${JSON.stringify(SCORE)}\n`);
  });
});

describe('scores set', () => {
  it('sends the score as a JSON integer after announcing the target', async () => {
    // The score before, for undo.
    t.pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET', headers: AUTH }).reply(200, { data: { ...SCORE, score: 90 } });
    t.pool().intercept({ path: '/api/v1/students/s1/scores', method: 'PUT', headers: AUTH, body: '{"score":120}' }).reply(200, { data: SCORE });
    const { code, stdout, stderr } = await t.cli(['scores', 'set', 's1', '120', '-o', 'json', '--reason', 'moderation']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(SCORE);
    expect(stderr).toBe('→ default (members.example.com)\n✓ Set the score of student s1 to 120\n');
  });

  it('refuses a score that is not an integer before sending anything: exit 2', async () => {
    const { code, stderr } = await t.cli(['scores', 'set', 's1', '12.5']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid SCORE "12.5": expected an integer\n');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

const BASE = 'https://members.example.com';
const TOKEN = 'tok_API_SENTINEL_0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let agent: MockAgent;
let configDir: string;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  configDir = mkdtempSync(join(tmpdir(), 'members-scores-'));
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  rmSync(configDir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const fake = fakeIo({ env: { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_CONFIG_DIR: configDir } });
  const code = await main(args, fake.io, { dispatcher: agent });
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const pool = () => agent.get(BASE);
const SCORE = { score: 120, posts: 3, comments: 4, replies: 5 };

describe('scores get', () => {
  it('looks a reference up, then reads the scores by id', async () => {
    pool().intercept({ path: '/api/v1/students/reference/crm-1', method: 'GET', headers: AUTH }).reply(200, { data: { id: 's1', email: 'm@example.com' } });
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET', headers: AUTH }).reply(200, { data: SCORE });
    const { code, stdout } = await cli(['scores', 'get', 'ref:crm-1']);
    expect(code).toBe(0);
    expect(stdout).toBe('SCORE     120\nPOSTS     3\nCOMMENTS  4\nREPLIES   5\n');
  });

  it('encodes an id such as ../products as one segment', async () => {
    pool().intercept({ path: '/api/v1/students/..%2Fproducts/scores', method: 'GET' }).reply(200, { data: SCORE });
    const { code, stdout } = await cli(['scores', 'get', '../products', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${JSON.stringify(SCORE)}\n`);
  });
});

describe('scores set', () => {
  it('sends the score as a JSON integer after announcing the target', async () => {
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'PUT', headers: AUTH, body: '{"score":120}' }).reply(200, { data: SCORE });
    const { code, stdout, stderr } = await cli(['scores', 'set', 's1', '120', '-o', 'json', '--reason', 'moderation']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(SCORE);
    expect(stderr).toBe('→ default (members.example.com)\n✓ Set the score of student s1 to 120\n');
  });

  it('refuses a score that is not an integer before sending anything: exit 2', async () => {
    const { code, stderr } = await cli(['scores', 'set', 's1', '12.5']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid SCORE "12.5": expected an integer\n');
  });
});

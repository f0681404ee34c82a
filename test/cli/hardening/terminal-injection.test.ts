/** Issue 15, in-process: server text never reaches the terminal raw; --fields and --out are checked before anything is sent, and a change is never followed by exit 2. */
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { createPrompter } from '../../../src/session/prompter.js';
import { AUTH, mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();
const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]/;

describe('hostile server text', () => {
  it('an error message and its 422 field errors are sanitized, in text and in the JSON error line', async () => {
    t.pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH }).reply(422, {
      message: `The given data was invalid.${OSC52}\rall good`,
      errors: { email: [`taken\u202e${OSC52}`] },
    });
    const { code, stderr } = await t.cli(['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.co', '-q', '-o', 'json']);
    expect(code).toBe(5);
    expect(stderr).not.toMatch(RAW);
    expect(stderr).toContain('error: the server rejected the request (422): The given data was invalid.\uFFFDall good');
    expect(stderr).toContain('email: taken');
  });

  it('a student name cannot rewrite a question: every prompt goes through the prompter, which sanitizes it', async () => {
    const prompter = createPrompter({ stdin: Object.assign(new PassThrough(), { isTTY: false }), stderr: { write: () => true } }, { yes: false });
    const question = 'Delete student Ana\r\u001b[2KKeep student Ana and cancel the deletion\u202e?';
    await expect(prompter.confirm(question)).rejects.toThrow(
      'Delete student Ana\uFFFDKeep student Ana and cancel the deletion: confirmation needed but stdin is not a terminal; pass --yes to proceed',
    );
  });

  it('a magic link with control characters is refused, not printed', async () => {
    t.pool().intercept({ path: '/api/v1/students/email/ana%40x.co/magic-link', method: 'POST', headers: AUTH })
      .reply(200, { data: { expire_in: 3600, url: `https://x.test/magic/abc${OSC52}` } });
    const { code, stdout, stderr } = await t.cli(['magic-link', 'ana@x.co', '-q']);
    expect(code).toBe(5);
    expect(stdout).toBe('');
    expect(stderr).not.toMatch(RAW);
    expect(stderr).toContain('magic link with control or invisible characters');
  });
});

describe('--fields is checked before anything is sent (issue 15)', () => {
  it.each([
    [['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.co']],
    [['students', 'grant', 's1', '00000000-0000-4000-8000-000000000001']],
    [['magic-link', 'ana@x.co']],
    [['scores', 'set', 's1', '5']],
  ])('%j --fields emial: exit 2, no request', async (args) => {
    t.agent.enableCallHistory();
    const { code, stderr } = await t.cli([...args, '--fields', 'emial', '-q']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: unknown field "emial" in --fields \(nothing was sent\); available fields: /);
    expect(t.agent.getCallHistory()?.calls() ?? []).toEqual([]);
  });
});

describe('members api: a change is never followed by exit 2 (issue 15)', () => {
  it('-X POST --fields emial: the POST is made, so the unknown field prints as null with a warning, exit 0', async () => {
    t.pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH }).reply(201, { data: { id: 's9', email: 'a@b.co' } });
    const { code, stdout, stderr } = await t.cli(['api', '/api/v1/students', '-X', 'POST', '-f', 'email=a@b.co', '--fields', 'data.id,emial']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ data: { id: 's9' }, emial: null });
    expect(stderr).toBe('warning: the answer to the POST has no field "emial" (printed as null); the request was sent and succeeded. Available fields: data.id, data.email\n');
  });

  it('a GET with an unknown field still fails as a usage error (nothing was changed)', async () => {
    t.pool().intercept({ path: '/api/v1/products', method: 'GET', headers: AUTH }).reply(200, { data: [] });
    const { code, stderr } = await t.cli(['api', '/api/v1/products', '--fields', 'emial']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: unknown field "emial" in --fields; available fields: data\n');
  });
});

describe('--out is checked before anything is sent (issue 15)', () => {
  it.each([
    [['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.co']],
    [['students', 'grant', 's1', '00000000-0000-4000-8000-000000000001']],
    [['magic-link', 'ana@x.co']],
    [['scores', 'set', 's1', '5']],
    [['students', 'get', 's1']],
    [['api', '/api/v1/students', '-X', 'POST', '-f', 'email=a@b.co']],
  ])('%j --out a directory, or in a missing one: exit 2, no request', async (args) => {
    t.agent.enableCallHistory();
    const directory = await t.cli([...args, '--out', t.configDir, '-q']);
    expect(directory).toMatchObject({ code: 2, stderr: `error: cannot write --out ${t.configDir}: it is a directory; give a file name\n` });
    const missing = await t.cli([...args, '--out', `${t.configDir}/missing/out.json`, '-q']);
    expect(missing).toMatchObject({ code: 2, stderr: `error: cannot write --out ${t.configDir}/missing/out.json: ENOENT\n` });
    expect(t.agent.getCallHistory()?.calls() ?? []).toEqual([]);
  });
});

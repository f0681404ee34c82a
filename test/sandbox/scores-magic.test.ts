import { describe, expect, it } from 'vitest';
import { call, useSandbox, type Data, type ErrorBody } from './helpers.js';

const sandbox = useSandbox({ students: 20, seed: 3 });

interface Score {
  score: number;
  posts: number;
  comments: number;
  replies: number;
}

function studentAt(index: number): { id: string; email: string } {
  const student = sandbox().store.students[index];
  if (!student) throw new Error(`no student ${index}`);
  return student;
}

describe('scores', () => {
  it('reads the four integer counters', async () => {
    const student = sandbox().store.students[4];
    const { status, body } = await call<Data<Score>>(sandbox(), `/api/v1/students/${student?.id}/scores`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ score: student?.score, posts: student?.posts, comments: student?.comments, replies: student?.replies });
  });

  it('sets the score with PUT and answers the updated counters', async () => {
    const { id } = studentAt(5);
    const { status, body } = await call<Data<Score>>(sandbox(), `/api/v1/students/${id}/scores`, { method: 'PUT', body: { score: 4321 } });
    expect(status).toBe(200);
    expect(body.data.score).toBe(4321);
    expect((await call<Data<Score>>(sandbox(), `/api/v1/students/${id}/scores`)).body.data.score).toBe(4321);
  });

  it.each([
    [{ score: 12.5 }, 'The score field must be an integer.'],
    [{ score: '10' }, 'The score field must be an integer.'],
    [{ score: -1 }, 'The score field must be at least 0.'],
    [{}, 'The score field is required.'],
  ])('rejects %j with 422', async (body, message) => {
    const { id } = studentAt(6);
    const reply = await call<ErrorBody>(sandbox(), `/api/v1/students/${id}/scores`, { method: 'PUT', body });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ message, errors: { score: [message] } });
  });

  it('answers 404 for an unknown student', async () => {
    expect((await call(sandbox(), '/api/v1/students/nope/scores')).status).toBe(404);
  });
});

describe('magic links', () => {
  it('hands out a link by id: 200, the expiry echoed, a URL on the sandbox host', async () => {
    const { id } = studentAt(1);
    const { status, body } = await call<Data<{ expire_in: number; url: string }>>(sandbox(), `/api/v1/students/${id}/magic-link`, {
      method: 'POST',
      body: { expire_in: 3600 },
    });
    expect(status).toBe(200);
    expect(body.data.expire_in).toBe(3600);
    expect(body.data.url).toMatch(new RegExp(`^${sandbox().url}/magic/[A-Za-z0-9_-]{32}$`));
  });

  it('hands out a different link each time, by e-mail too', async () => {
    const { email } = studentAt(2);
    const path = `/api/v1/students/email/${encodeURIComponent(email)}/magic-link`;
    const first = await call<Data<{ url: string }>>(sandbox(), path, { method: 'POST', body: { expire_in: 60 } });
    const second = await call<Data<{ url: string }>>(sandbox(), path, { method: 'POST', body: { expire_in: 604800 } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.data.url).not.toBe(second.body.data.url);
  });

  it.each([
    [{ expire_in: 59 }, 'The expire in field must be between 60 and 604800.'],
    [{ expire_in: 604801 }, 'The expire in field must be between 60 and 604800.'],
    [{ expire_in: '3600' }, 'The expire in field must be an integer.'],
    [{}, 'The expire in field is required.'],
  ])('rejects %j with 422', async (body, message) => {
    const { id } = studentAt(1);
    const reply = await call<ErrorBody>(sandbox(), `/api/v1/students/${id}/magic-link`, { method: 'POST', body });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ expire_in: [message] });
  });

  it('answers 404 for an unknown e-mail', async () => {
    const reply = await call<ErrorBody>(sandbox(), '/api/v1/students/email/nobody%40example.com/magic-link', { method: 'POST', body: { expire_in: 3600 } });
    expect(reply.status).toBe(404);
    expect(reply.body.exception).toBe('StudentNotFoundException');
  });
});

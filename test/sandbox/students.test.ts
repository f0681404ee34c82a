import { describe, expect, it } from 'vitest';
import { call, useSandbox, type Data, type ErrorBody, type Page, type StudentJson } from './helpers.js';

const sandbox = useSandbox({ students: 50, seed: 7 });

describe('authentication', () => {
  it('answers 401 Unauthenticated without a bearer token', async () => {
    const reply = await call<ErrorBody>(sandbox(), '/api/v1/students', { token: null });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers 401 to a wrong token', async () => {
    const reply = await call<ErrorBody>(sandbox(), '/api/v1/students', { token: 'sbx_api_wrong' });
    expect(reply.status).toBe(401);
  });
});

describe('GET /api/v1/students', () => {
  it('pages 15 students by default with Laravel links and meta as absolute URLs', async () => {
    const { status, body } = await call<Page<StudentJson>>(sandbox(), '/api/v1/students');
    const base = `${sandbox().url}/api/v1/students`;
    expect(status).toBe(200);
    expect(body.data).toHaveLength(15);
    expect(body.links).toEqual({ first: `${base}?page=1`, last: `${base}?page=4`, prev: null, next: `${base}?page=2` });
    expect(body.meta).toEqual({
      current_page: 1, from: 1, last_page: 4,
      links: [
        { url: null, label: '&laquo; Previous', active: false },
        ...[1, 2, 3, 4].map((n) => ({ url: `${base}?page=${n}`, label: String(n), active: n === 1 })),
        { url: `${base}?page=2`, label: 'Next &raquo;', active: false },
      ],
      path: base, per_page: 15, to: 15, total: 50,
    });
  });

  it('keeps the other query parameters in its links', async () => {
    const { body } = await call<Page<StudentJson>>(sandbox(), '/api/v1/students?with=subscriptions&per_page=20&page=2');
    const base = `${sandbox().url}/api/v1/students`;
    expect(body.links).toEqual({
      first: `${base}?with=subscriptions&per_page=20&page=1`,
      last: `${base}?with=subscriptions&per_page=20&page=3`,
      prev: `${base}?with=subscriptions&per_page=20&page=1`,
      next: `${base}?with=subscriptions&per_page=20&page=3`,
    });
    expect(body.meta).toMatchObject({ current_page: 2, from: 21, to: 40, per_page: 20 });
  });

  it('builds links from the Host header the client used', async () => {
    const port = new URL(sandbox().url).port;
    const { body } = await call<Page<StudentJson>>(sandbox(), '/api/v1/students?per_page=100', { headers: { host: `localhost:${port}` } });
    expect(body.meta.path).toBe(`http://localhost:${port}/api/v1/students`);
  });

  it('serves the last partial page and an empty page beyond it', async () => {
    const last = await call<Page<StudentJson>>(sandbox(), '/api/v1/students?per_page=15&page=4');
    expect(last.body.data).toHaveLength(5);
    expect(last.body.meta).toMatchObject({ from: 46, to: 50 });
    expect(last.body.links.next).toBeNull();
    const beyond = await call<Page<StudentJson>>(sandbox(), '/api/v1/students?page=9');
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 4 });
  });

  it('lists students in creation order, the same as the store', async () => {
    const { body } = await call<Page<StudentJson>>(sandbox(), '/api/v1/students?per_page=100');
    expect(body.data.map((student) => student.id)).toEqual(sandbox().store.students.map((student) => student.id));
  });

  it('includes subscriptions (with product, without student) only when with=subscriptions', async () => {
    const plain = await call<Page<StudentJson>>(sandbox(), '/api/v1/students');
    expect(plain.body.data.every((student) => !('subscriptions' in student))).toBe(true);
    const withSubscriptions = await call<Page<StudentJson>>(sandbox(), '/api/v1/students?with=subscriptions');
    for (const student of withSubscriptions.body.data) {
      expect(student.subscriptions?.length).toBe(sandbox().store.subscriptionsOf(student.id).length);
      for (const subscription of student.subscriptions ?? []) {
        expect(subscription.product.id).toBe(subscription.product_id);
        expect(subscription).not.toHaveProperty('student');
      }
    }
  });

  it.each([
    ['per_page=0', 'per_page', 'The per page field must be between 1 and 100.'],
    ['per_page=101', 'per_page', 'The per page field must be between 1 and 100.'],
    ['per_page=ten', 'per_page', 'The per page field must be an integer.'],
    ['page=0', 'page', 'The page field must be at least 1.'],
    ['page=1.5', 'page', 'The page field must be an integer.'],
  ])('rejects %s with 422 and a field error', async (query, field, message) => {
    const { status, body } = await call<ErrorBody>(sandbox(), `/api/v1/students?${query}`);
    expect(status).toBe(422);
    expect(body).toEqual({ message, errors: { [field]: [message] } });
  });
});

describe('student lookups', () => {
  const expectSameStudent = (reply: { status: number; body: Data<StudentJson> }, id: string): void => {
    expect(reply.status).toBe(200);
    expect(reply.body.data.id).toBe(id);
    expect(reply.body.data.subscriptions).toHaveLength(sandbox().store.subscriptionsOf(id).length);
  };

  it('finds a student by id, with subscriptions', async () => {
    const student = sandbox().store.students[3];
    if (!student) throw new Error('no student');
    expectSameStudent(await call<Data<StudentJson>>(sandbox(), `/api/v1/students/${student.id}`), student.id);
  });

  it('finds a student by e-mail regardless of case, with a +tag percent-encoded', async () => {
    const student = sandbox().store.students.find((candidate) => candidate.email.includes('+'));
    if (!student) throw new Error('no tagged e-mail in the seed');
    const reply = await call<Data<StudentJson>>(sandbox(), `/api/v1/students/email/${encodeURIComponent(student.email.toUpperCase())}`);
    expectSameStudent(reply, student.id);
    expect(reply.body.data.email).toBe(student.email);
  });

  it('finds a student by a document holding a slash sent as %2F', async () => {
    const student = sandbox().store.students.find((candidate) => candidate.document?.includes('/'));
    if (!student?.document) throw new Error('no document with a slash in the seed');
    expect(encodeURIComponent(student.document)).toContain('%2F');
    expectSameStudent(await call<Data<StudentJson>>(sandbox(), `/api/v1/students/document/${encodeURIComponent(student.document)}`), student.id);
  });

  it('does not match a document whose slash is sent raw (it splits the path)', async () => {
    const student = sandbox().store.students.find((candidate) => candidate.document?.includes('/'));
    const reply = await call<ErrorBody>(sandbox(), `/api/v1/students/document/${student?.document ?? ''}`);
    expect(reply.status).toBe(404);
  });

  it('finds a student by a CPF document and by reference id', async () => {
    const student = sandbox().store.students.find((candidate) => /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(candidate.document ?? '') && candidate.reference_id);
    if (!student?.document || !student.reference_id) throw new Error('no CPF with a reference in the seed');
    expectSameStudent(await call<Data<StudentJson>>(sandbox(), `/api/v1/students/document/${encodeURIComponent(student.document)}`), student.id);
    expectSameStudent(await call<Data<StudentJson>>(sandbox(), `/api/v1/students/reference/${encodeURIComponent(student.reference_id)}`), student.id);
  });

  it.each(['/api/v1/students/00000000-0000-4000-8000-000000000000', '/api/v1/students/email/nobody%40example.com', '/api/v1/students/document/000.000.000-00', '/api/v1/students/reference/CRM-none'])(
    'answers 404 StudentNotFoundException for %s',
    async (path) => {
      const { status, body } = await call<ErrorBody>(sandbox(), path);
      expect(status).toBe(404);
      expect(body).toEqual({ message: 'Student not found.', exception: 'StudentNotFoundException' });
    },
  );
});

describe('POST /api/v1/students', () => {
  const valid = {
    first_name: 'Conceição',
    last_name: 'Araújo',
    email: 'conceicao.araujo+novo@example.com.br',
    phone: '+55 11 91234-5678',
    birth: '1990-02-28',
    document: 'RG/99.123.456-7',
    reference_id: 'CRM-TEST-1',
  };

  it('creates a student: 201 with the record, no subscriptions, findable afterwards', async () => {
    const { status, body } = await call<Data<StudentJson>>(sandbox(), '/api/v1/students', { method: 'POST', body: valid });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ ...valid, full_name: 'Conceição Araújo', photo_url: null, subscriptions: [] });
    expect(body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const found = await call<Data<StudentJson>>(sandbox(), `/api/v1/students/document/${encodeURIComponent(valid.document)}`);
    expect(found.body.data.id).toBe(body.data.id);
  });

  it('reports every missing required field at once', async () => {
    const { status, body } = await call<ErrorBody>(sandbox(), '/api/v1/students', { method: 'POST', body: { first_name: '' } });
    expect(status).toBe(422);
    expect(body).toEqual({
      message: 'The first name field is required. (and 2 more errors)',
      errors: {
        first_name: ['The first name field is required.'],
        last_name: ['The last name field is required.'],
        email: ['The email field is required.'],
      },
    });
  });

  it.each([
    [{ email: 'not-an-email' }, 'email', 'The email field must be a valid email address.'],
    [{ email: 'CONCEICAO.ARAUJO+NOVO@example.com.br' }, 'email', 'The email has already been taken.'],
    [{ email: 'other1@example.com', birth: '2023-02-29' }, 'birth', 'The birth field must be a valid date.'],
    [{ email: 'other2@example.com', birth: '28/02/1990' }, 'birth', 'The birth field must match the format Y-m-d.'],
    [{ email: 'other3@example.com', document: 'RG/99.123.456-7' }, 'document', 'The document has already been taken.'],
    [{ email: 'other4@example.com', reference_id: 'CRM-TEST-1' }, 'reference_id', 'The reference id has already been taken.'],
    [{ email: 'other5@example.com', phone: 11912345678 }, 'phone', 'The phone field must be a string.'],
  ])('rejects %j with 422 on %s', async (change, field, message) => {
    // The "already taken" cases collide with this student.
    expect((await call(sandbox(), '/api/v1/students', { method: 'POST', body: valid })).status).toBe(201);
    const { status, body } = await call<ErrorBody>(sandbox(), '/api/v1/students', {
      method: 'POST',
      body: { ...valid, document: null, reference_id: null, ...change },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ [field]: [message] });
    expect(body.message).toBe(message);
  });

  it.each([
    ['{"first_name": ', 'The request body is not valid JSON.'],
    ['["a"]', 'The request body must be a JSON object.'],
  ])('answers 400 to the body %s', async (raw, message) => {
    const { status, body } = await call<ErrorBody>(sandbox(), '/api/v1/students', { method: 'POST', body: raw });
    expect(status).toBe(400);
    expect(body).toEqual({ message });
  });
});

describe('DELETE /api/v1/students/{id}', () => {
  it('answers 204 with an empty body, then 404', async () => {
    const created = await call<Data<StudentJson>>(sandbox(), '/api/v1/students', {
      method: 'POST',
      body: { first_name: 'Ângela', last_name: 'Mourão', email: 'angela.mourao@example.com' },
    });
    const path = `/api/v1/students/${created.body.data.id}`;
    const deleted = await call(sandbox(), path, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await call(sandbox(), path)).status).toBe(404);
    expect((await call(sandbox(), path, { method: 'DELETE' })).status).toBe(404);
    expect(sandbox().store.studentByEmail('angela.mourao@example.com')).toBeUndefined();
  });

  it('removes the student’s subscriptions from /subscriptions', async () => {
    const student = sandbox().store.students[0];
    if (!student) throw new Error('no student');
    const subscriptionIds = sandbox().store.subscriptionsOf(student.id).map((subscription) => subscription.id);
    expect(subscriptionIds.length).toBeGreaterThan(0);
    expect((await call(sandbox(), `/api/v1/students/${student.id}`, { method: 'DELETE' })).status).toBe(204);
    for (const id of subscriptionIds) expect((await call(sandbox(), `/api/v1/subscriptions/${id}`)).status).toBe(404);
  });
});

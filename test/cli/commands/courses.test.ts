import { describe, expect, it } from 'vitest';
import { BASE, mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();

const lesson = (id: string, title: string, published = '1') =>
  ({ id, title, subtitle: '', slug: id, blocked: '0', published, url_upsell: null, text_upsell: null });

const YOGA = {
  id: 'c1', title: 'Yoga for beginners', description: 'Start here', status: 'published', slug: 'yoga', url_upsell: null, text_upsell: null,
  blocked: 0, published: 1,
  modules: [
    { id: 'm1', title: 'Breathing', description: '', slug: 'breathing', blocked: '0', published: '1', url_upsell: null, text_upsell: null,
      lessons: [lesson('l1', 'Welcome'), lesson('l2', 'Posture\nand \u001b[31mbalance', '0')] },
    { id: 'm2', title: 'Flow', description: '', slug: 'flow', blocked: '1', published: '1', url_upsell: null, text_upsell: null,
      lessons: [lesson('l3', 'Sun salutation')] },
  ],
};
const EMPTY = { id: 'c2', title: 'Coming soon', description: null, status: 'draft', slug: 'soon', blocked: 1, published: 0, modules: [] };

/** The course list, read once when a COURSE is not found by id: one course c1 with this title. */
const courseList = (title: string) => t.agent.get(BASE).intercept({ path: (path: string) => path.startsWith('/api/v1/courses?'), method: 'GET' })
  .reply(200, { data: [{ id: 'c1', title, slug: 'yoga' }], links: {}, meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 } });

describe('courses list', () => {
  it('shows counts of modules and lessons in the table', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/courses', method: 'GET', query: { page: '1' } })
      .reply(200, { data: [YOGA, EMPTY], links: {}, meta: { current_page: 1, last_page: 1, per_page: 15, total: 2 } });
    const { code, stdout, stderr } = await t.cli(['courses', 'list']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'ID  TITLE               STATUS     PUBLISHED  MODULES  LESSONS',
      'c1  Yoga for beginners  published  yes        2        3',
      'c2  Coming soon         draft      no         0        0',
      '',
    ].join('\n'));
    expect(stderr).toBe('');
  });

  it('csv carries the scalar fields as sent', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/courses', method: 'GET', query: { page: '1' } })
      .reply(200, { data: [EMPTY], links: {}, meta: { current_page: 1, last_page: 1, per_page: 15, total: 1 } });
    const { stdout } = await t.cli(['courses', 'list', '-o', 'csv']);
    expect(stdout).toBe('id,title,description,status,slug,blocked,published\nc2,Coming soon,,draft,soon,1,0\n');
  });
});

describe('courses get', () => {
  it('shows the course, then its modules and lessons as a tree', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/courses/c1', method: 'GET' }).reply(200, { data: YOGA });
    const { code, stdout } = await t.cli(['courses', 'get', 'c1']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'Yoga for beginners  (c1)',
      'status: published · published: yes · blocked: no · 2 modules, 3 lessons',
      'Start here',
      '├── Breathing  (m1)',
      '│   ├── Welcome  (l1)',
      '│   └── Posture and balance  (l2) [unpublished]',
      '└── Flow  (m2) [blocked]',
      '    └── Sun salutation  (l3)',
      '',
    ].join('\n'));
  });

  it('prints the record as sent with -o json', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/courses/c1', method: 'GET' }).reply(200, { data: YOGA });
    const { stdout } = await t.cli(['courses', 'get', 'c1', '-o', 'json']);
    expect(JSON.parse(stdout)).toEqual(YOGA);
  });
});

describe('an unknown COURSE', () => {
  // Not found by id: maybe a title, so the list is read once. Not found either: still exit 4, with the titles sharing a word.
  it.each([
    ['get', 'zz', '/api/v1/courses/zz', 'Yoga', ' See `members courses list --all`.'],
    ['accesses', 'zz', '/api/v1/courses/zz/accesses', 'Yoga', ' See `members courses list --all`.'],
    ['accesses', 'meditation', '/api/v1/courses/meditation/accesses', 'Yoga and Meditation', ' Did you mean:\n  c1  Yoga and Meditation'],
  ])('courses %s %s: exit 4', async (verb, input, path, title, hint) => {
    t.agent.get(BASE).intercept({ path, method: 'GET' }).reply(404, { message: 'Course not found.' });
    courseList(title);
    const { code, stderr } = await t.cli(['courses', verb, input]);
    expect(code).toBe(4);
    expect(stderr).toBe(`error: course ${input} not found; no course has that title either (GET ${path}).${hint}\n`);
  });
});

describe('courses accesses', () => {
  const accesses = [
    { id: 's1', name: 'Maria Souza', email: 'maria@example.com',
      course: { id: 'c1', name: 'Yoga', last_access_at: '2024-05-01 08:30:00', finished: 1, finished_at: '2024-04-30 21:00:00' } },
    { id: 's2', name: 'João', email: 'joao@example.com',
      course: { id: 'c1', name: 'Yoga', last_access_at: null, finished: 0, finished_at: null } },
  ];

  it('lists who accessed the course', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/courses/c1/accesses', method: 'GET' }).reply(200, { data: accesses });
    const { code, stdout } = await t.cli(['courses', 'accesses', 'c1']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'NAME         E-MAIL             LAST ACCESS       FINISHED  FINISHED AT',
      'Maria Souza  maria@example.com  2024-05-01 08:30  yes       2024-04-30 21:00',
      'João         joao@example.com                     no',
      '',
    ].join('\n'));
  });

  it('ndjson gives one record per line', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/courses/c1/accesses', method: 'GET' }).reply(200, { data: accesses });
    const { stdout } = await t.cli(['courses', 'accesses', 'c1', '-o', 'ndjson']);
    expect(stdout).toBe(accesses.map((a) => `${JSON.stringify(a)}\n`).join(''));
  });

  it('says so when nobody accessed it', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/courses/c1/accesses', method: 'GET' }).reply(200, { data: [] });
    const { code, stdout, stderr } = await t.cli(['courses', 'accesses', 'c1']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe('No course accesses found\n');
  });
});

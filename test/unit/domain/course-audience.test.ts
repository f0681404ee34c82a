import { describe, expect, it } from 'vitest';
import type { CourseAccess, Subscription } from '../../../src/api/endpoints/schemas.js';
import { byCompletion, hasFinished, neverOpened, openedBy } from '../../../src/domain/course-audience.js';

const access = (id: string, last: string | null, finished: unknown): CourseAccess => ({
  id, name: `Name ${id}`, email: `${id}@example.com`,
  course: { id: 'c1', name: 'Yoga', last_access_at: last, finished: finished as number, finished_at: finished ? last : null },
});

const ENTRIES = [
  access('done', '2026-01-02 10:00:00', 1),
  access('doing', '2026-01-03 10:00:00', 0),
  access('enrolled', null, 0),
  access('string-flag', '2026-01-04 10:00:00', '1'),
];

const held = (student: string, productId: string, active: number | boolean | string, extra: Partial<Subscription> = {}): Subscription => ({
  id: `sub-${student}-${productId}`, product_id: productId, active: active as number, status: 'active', accession_date: '2026-01-01', expiration_date: '2027-01-01',
  student: { id: student, first_name: 'Ana', last_name: student, full_name: null, email: `${student}@example.com` }, ...extra,
});

describe('byCompletion', () => {
  it('--finished keeps the finished entries, whatever the flag is sent as; --not-finished the others, never-opened ones too', () => {
    expect(byCompletion(ENTRIES, 'finished').map((entry) => entry.id)).toEqual(['done', 'string-flag']);
    expect(byCompletion(ENTRIES, 'not-finished').map((entry) => entry.id)).toEqual(['doing', 'enrolled']);
  });

  it('a boolean true is finished; 0, "0", false and null are not', () => {
    expect([1, '1', true, 0, '0', false, null].map((flag) => hasFinished(access('x', null, flag)))).toEqual([true, true, true, false, false, false, false]);
  });
});

describe('openedBy', () => {
  it('holds the students with a last access or a finished course, not an enrolment never opened', () => {
    const finishedWithoutTime = access('odd', null, 1);
    expect([...openedBy([...ENTRIES, finishedWithoutTime])].sort()).toEqual(['doing', 'done', 'odd', 'string-flag']);
  });
});

describe('neverOpened', () => {
  const opened = openedBy(ENTRIES);

  it('keeps the holders of the product with access who are not among those who opened the course, with name, e-mail and dates', () => {
    const page = [
      held('enrolled', 'p1', 1, { status: 'canceled' }), // in the accesses, never opened
      held('absent', 'p1', 1), // not in the accesses at all
      held('doing', 'p1', 1), // opened it
      held('no-access', 'p1', 0), // no access: not a holder to welcome
      held('other-product', 'p2', 1),
    ];
    expect(neverOpened(page, 'p1', opened)).toEqual([
      { id: 'enrolled', name: 'Ana enrolled', email: 'enrolled@example.com', status: 'canceled', accession_date: '2026-01-01', expiration_date: '2027-01-01' },
      { id: 'absent', name: 'Ana absent', email: 'absent@example.com', status: 'active', accession_date: '2026-01-01', expiration_date: '2027-01-01' },
    ]);
  });

  it('takes the product from product.id when product_id is missing, and skips a subscription without its student', () => {
    const bare = { ...held('absent', 'p1', 1), product_id: undefined as unknown as string, product: { id: 'p1', title: 'Yoga' } };
    const anonymous = { ...held('x', 'p1', 1), student: null };
    const missing = { ...held('y', 'p1', 1, { status: null, accession_date: null, expiration_date: null }), student: { id: 'y', email: null } };
    expect(neverOpened([bare, anonymous, missing], 'p1', opened)).toEqual([
      expect.objectContaining({ id: 'absent' }),
      { id: 'y', name: '', email: null, status: null, accession_date: null, expiration_date: null },
    ]);
  });
});

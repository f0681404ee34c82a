import { describe, expect, it } from 'vitest';
import { courseTally, engagementByCourse, hundredths, type EngagementRow } from '../../../src/domain/course-engagement.js';

const row = (user: string, course: string, completion: unknown, average: unknown = '50.00'): EngagementRow => ({
  user_id: user, course_id: course, course_name: `Course ${course}`,
  course_completion_percent: completion as string, course_avg_engagement_score: average as string,
});

describe('hundredths', () => {
  it.each([
    ['87.50', 8750], [87.5, 8750], ['100.00', 10000], [100, 10000], ['0', 0], [0, 0], ['33.333', 3333], ['66.666', 6667],
  ])('%j is %d hundredths', (value, expected) => {
    expect(hundredths(value)).toBe(expected);
  });

  it.each([null, undefined, '', '  ', 'n/a', Number.NaN, Number.POSITIVE_INFINITY])('%j is no number', (value) => {
    expect(hundredths(value)).toBeNull();
  });
});

describe('courseTally', () => {
  it('one entry per course in the order the report names them, with its students, finished, mean and average', () => {
    const tally = courseTally();
    tally.add([row('u1', 'b', '100.00', '70.00'), row('u2', 'b', '40.00', '70.00')]);
    tally.add([row('u3', 'b', '70.50', '70.00'), row('u1', 'a', '10.00', '10.00')]);
    expect(tally.courses()).toEqual([
      { course_id: 'b', course: 'Course b', students: 3, finished: 1, mean_completion: 70.17, average_score: 70 },
      { course_id: 'a', course: 'Course a', students: 1, finished: 0, mean_completion: 10, average_score: 10 },
    ]);
  });

  it('a student listed twice for a course counts once, finished once', () => {
    const tally = courseTally();
    tally.add([row('u1', 'a', 100), row('u1', 'a', '100.00'), row('u2', 'a', 99.99)]);
    const [course] = tally.courses();
    expect(course).toMatchObject({ students: 2, finished: 1 });
    // The mean is over the rows, as the server's average is.
    expect(course?.mean_completion).toBe(100);
  });

  it('finished is 100 % or more, and not 99.995 rounded to two places up', () => {
    const tally = courseTally();
    tally.add([row('u1', 'a', '99.99'), row('u2', 'a', '100'), row('u3', 'a', '100.01')]);
    expect(tally.courses()[0]?.finished).toBe(2);
  });

  it('rows without a completion count as students but not in the mean; no completion at all is a null mean', () => {
    const tally = courseTally();
    tally.add([row('u1', 'a', null), row('u2', 'a', '60.00'), row('u3', 'b', ''), row('u4', 'b', undefined)]);
    expect(tally.courses()).toMatchObject([
      { course_id: 'a', students: 2, finished: 0, mean_completion: 60 },
      { course_id: 'b', students: 2, finished: 0, mean_completion: null },
    ]);
  });

  it('the first average the server gives stands; a course without one has a null average', () => {
    const tally = courseTally();
    tally.add([row('u1', 'a', 1, null), row('u2', 'a', 1, '41.25'), row('u3', 'a', 1, '99.00'), row('u1', 'b', 1, null)]);
    expect(tally.courses().map((course) => course.average_score)).toEqual([41.25, null]);
  });

  it('a course without a name is named by an empty string; nothing added is no course', () => {
    expect(courseTally().courses()).toEqual([]);
    const tally = courseTally();
    tally.add([{ ...row('u1', 'a', 1), course_name: null }]);
    expect(tally.courses()[0]?.course).toBe('');
  });
});

describe('engagementByCourse', () => {
  it('tallies every page', async () => {
    async function* pages() {
      yield [row('u1', 'a', '50')];
      yield [row('u2', 'a', '100')];
    }
    expect(await engagementByCourse(pages())).toEqual([
      { course_id: 'a', course: 'Course a', students: 2, finished: 1, mean_completion: 75, average_score: 50 },
    ]);
  });
});

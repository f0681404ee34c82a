/**
 * The manual page's renderer (scripts/man-page.ts) on a small program: what roff would misread is escaped.
 * test/e2e/man-page.test.ts renders the real page with man.
 */
import { describe, expect, it } from 'vitest';
import { manPage } from '../../scripts/man-page.js';
import { fixtureProgram } from './completion/fixture.js';

const META = { version: '1.2.3', date: '2026-11-25', homepage: 'https://example.com/members' };

describe('manPage', () => {
  it('escapes a leading dot, backslashes, dashes and text outside ASCII; lets comma lists break', () => {
    const program = fixtureProgram();
    program.command('odd').description('.starts with a dot, C:\\path and ação').option('--fields-list <a,b>', 'id,email,product.title');
    const page = manPage(program, META);
    expect(page).toContain('\n\\&.starts with a dot, C:\\epath and a\\[u00E7]\\[u00E3]o\n');
    expect(page).toContain('\\fB\\-\\-fields\\-list \\fR\\fI<a,\\:b>\\fR');
    expect(page).toContain('\nid,\\:email,\\:product.title\n');
  });

  it('names the program, its version and date, and each command once as a subsection', () => {
    const page = manPage(fixtureProgram(), META);
    expect(page.split('\n')[0]).toBe('.TH MEMBERS 1 "2026-11-25" "members 1.2.3" "User Commands"');
    expect(page.match(/^\.SS .*$/gm)).toEqual([
      '.SS "members students"', '.SS "members students list"', '.SS "members students get"', '.SS "members students grant"',
      '.SS "members students import"', '.SS "members subscriptions"', '.SS "members subscriptions list"', '.SS "members api"',
      '.SS "members auth"', '.SS "members auth switch"', '.SS "members report"', '.SS "members report engaged\\-courses"',
      '.SS "members completion"',
    ]);
  });
});

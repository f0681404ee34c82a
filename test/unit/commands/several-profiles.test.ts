import { describe, expect, it } from 'vitest';
import { chosenProfiles, commonUsageError, profileView, withProfile, worstExitCode } from '../../../src/commands/shared/several-profiles.js';
import { CliError, ExitCode, UsageError } from '../../../src/lib/errors.js';

describe('chosenProfiles', () => {
  const stored = ['escola-a', 'escola-b', 'escola-c'];
  it('every stored profile with --all-profiles, in the stored order', () => {
    expect(chosenProfiles(stored, { all: true })).toEqual(stored);
  });
  it('the named ones in the order given, once each, blanks ignored', () => {
    expect(chosenProfiles(stored, { all: false, profiles: 'escola-c, escola-a,,escola-c' })).toEqual(['escola-c', 'escola-a']);
  });
  it.each([
    [{ all: false, profiles: 'escola-a,nope,zilch' }, 'no stored profile "nope", "zilch": the profiles are "escola-a", "escola-b", "escola-c"'],
    [{ all: false, profiles: ' , ' }, '--profiles needs profile names'],
    [{ all: true, profiles: 'escola-a' }, '--profiles and --all-profiles: give one of them'],
  ])('%j is a usage error', (choice, message) => {
    expect(() => chosenProfiles(stored, choice)).toThrow(message);
  });
  it('--all-profiles without a stored profile says how to add one', () => {
    expect(() => chosenProfiles([], { all: true })).toThrow('members auth login --profile NAME');
  });
});

describe('worstExitCode', () => {
  it('an interrupt first, then the highest', () => {
    expect(worstExitCode([ExitCode.notFound, ExitCode.transient])).toBe(ExitCode.transient);
    expect(worstExitCode([ExitCode.interrupted, ExitCode.revokeCap])).toBe(ExitCode.interrupted);
    expect(worstExitCode([ExitCode.auth])).toBe(ExitCode.auth);
    expect(worstExitCode([])).toBe(ExitCode.ok);
  });
});

describe('withProfile and profileView', () => {
  it('puts the profile first, before a field of the same name the record may have', () => {
    const [record, named] = withProfile('escola-a', [{ id: '1', title: 'Yoga' }, { id: '2', profile: 'theirs' }]);
    expect(Object.keys(record ?? {})).toEqual(['profile', 'id', 'title']);
    expect(named).toEqual({ profile: 'escola-a', id: '2' });
    expect(Object.keys(named ?? {})[0]).toBe('profile');
  });
  it('adds a first PROFILE column and drops a one-record layout', () => {
    const view = profileView({ noun: 'students', columns: [{ header: 'Id', path: 'id' }], renderTable: () => 'card' });
    expect(view.columns.map((column) => column.path)).toEqual(['profile', 'id']);
    expect(view.renderTable).toBeUndefined();
  });
});

describe('commonUsageError', () => {
  it('the one usage error every profile failed with, else none', () => {
    const failed = (reason: unknown): PromiseSettledResult<unknown> => ({ status: 'rejected', reason });
    const same = new UsageError('--top 51');
    expect(commonUsageError([failed(same), failed(new UsageError('--top 51'))])).toBe(same);
    expect(commonUsageError([failed(same), failed(new UsageError('other'))])).toBeUndefined();
    expect(commonUsageError([failed(same), { status: 'fulfilled', value: undefined }])).toBeUndefined();
    expect(commonUsageError([failed(new CliError('down', ExitCode.transient))])).toBeUndefined();
  });
});

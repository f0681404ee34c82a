/** The update notice's rules (src/config/update-notice.ts); the detached check and the terminal: test/e2e/update-notice.test.ts. */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REGISTRY, PACKAGE_NAME, checkForUpdate, isNewer, latestOf, noticeUpdate, packageDocumentUrl, planUpdateNotice,
  readUpdateState, updateNoticeOff, updateStatePath, writeUpdateState, type UpdateState,
} from '../../../src/config/update-notice.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3600_000).toISOString();
const NOTICE = 'A new release of members is available: 1.2.0 → 1.3.0 (npm install -g members-cli)';

describe('the package asked about', () => {
  it("is package.json's name", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string };
    expect(PACKAGE_NAME).toBe(pkg.name);
  });
});

describe('updateNoticeOff', () => {
  it('is on at a terminal, without CI or MEMBERS_NO_UPDATE_NOTIFIER', () => {
    expect(updateNoticeOff({}, true, false)).toBeUndefined();
    expect(updateNoticeOff({ CI: '', MEMBERS_NO_UPDATE_NOTIFIER: '' }, true, false)).toBeUndefined();
    expect(updateNoticeOff({ CI: 'false' }, true, false)).toBeUndefined();
  });

  it.each([
    [{ MEMBERS_NO_UPDATE_NOTIFIER: '1' }, true, false, 'MEMBERS_NO_UPDATE_NOTIFIER is set'],
    [{ CI: '1' }, true, false, 'CI is set'],
    [{ CI: 'true' }, true, false, 'CI is set'],
    [{}, false, false, 'stderr is not a terminal'],
    [{}, true, true, '--quiet'],
  ])('%j, stderr a terminal: %s, quiet: %s → off (%s)', (env, tty, quiet, why) => {
    expect(updateNoticeOff(env, tty, quiet)).toBe(why);
  });
});

describe('packageDocumentUrl', () => {
  it("is npm's registry by default", () => {
    expect(packageDocumentUrl({})?.href).toBe(`${DEFAULT_REGISTRY}members-cli`);
  });

  it('follows npm_config_registry (NPM_CONFIG_REGISTRY too), and MEMBERS_UPDATE_REGISTRY before it', () => {
    expect(packageDocumentUrl({ npm_config_registry: 'https://npm.example.com/repository/npm' })?.href).toBe('https://npm.example.com/repository/npm/members-cli');
    expect(packageDocumentUrl({ NPM_CONFIG_REGISTRY: 'https://npm.example.com/' })?.href).toBe('https://npm.example.com/members-cli');
    expect(packageDocumentUrl({ npm_config_registry: 'https://a.example.com/', NPM_CONFIG_REGISTRY: 'https://b.example.com/' })?.href).toBe('https://a.example.com/members-cli');
    expect(packageDocumentUrl({ MEMBERS_UPDATE_REGISTRY: 'http://127.0.0.1:4873/', npm_config_registry: 'https://npm.example.com/' })?.href).toBe('http://127.0.0.1:4873/members-cli');
    expect(packageDocumentUrl({ MEMBERS_UPDATE_REGISTRY: '' })?.href).toBe(`${DEFAULT_REGISTRY}members-cli`);
  });

  it('is none for a registry that is no http(s) URL', () => {
    expect(packageDocumentUrl({ MEMBERS_UPDATE_REGISTRY: 'not a url' })).toBeUndefined();
    expect(packageDocumentUrl({ MEMBERS_UPDATE_REGISTRY: 'file:///srv/npm/' })).toBeUndefined();
  });
});

describe('latestOf', () => {
  it("is the document's dist-tags.latest", () => {
    expect(latestOf({ 'dist-tags': { latest: '9.9.9', next: '10.0.0-rc.1' }, versions: {} })).toBe('9.9.9');
  });

  it('is none when it is missing or no version (nothing else from the registry reaches the terminal)', () => {
    expect(latestOf(null)).toBeUndefined();
    expect(latestOf({})).toBeUndefined();
    expect(latestOf({ 'dist-tags': {} })).toBeUndefined();
    expect(latestOf({ 'dist-tags': { latest: 9 } })).toBeUndefined();
    expect(latestOf({ 'dist-tags': { latest: '9.9.9\u001b[2J' } })).toBeUndefined();
    expect(latestOf({ 'dist-tags': { latest: 'latest' } })).toBeUndefined();
    expect(latestOf({ 'dist-tags': { latest: ['9.9.9'] } })).toBeUndefined();
    expect(latestOf({ 'dist-tags': { latest: 'release-9.9.9' } })).toBeUndefined();
  });
});

describe('isNewer', () => {
  it.each([
    ['1.3.0', '1.2.0', true],
    ['1.2.0', '1.3.0', false],
    ['1.2.0', '1.2.0', false],
    ['2.0.0', '1.99.99', true],
    ['1.10.0', '1.9.0', true],
    ['1.2.10', '1.2.9', true],
    ['1.2.9', '1.2.10', false],
    ['v1.3.0', '1.2.0', true],
    ['1.3.0+build.5', '1.3.0', false],
    ['1.3.1+build.5', '1.3.0', true],
    ['10.0.0', '9.9.9', true],
    ['release-9.9.9', '1.0.0', false],
    // Pre-releases (semver.org §11): a release after its pre-releases, then identifier by identifier.
    ['1.0.0', '1.0.0-rc.1', true],
    ['1.0.0-rc.1', '1.0.0', false],
    ['1.0.0-rc.1', '1.0.0-rc.1', false],
    ['1.0.0-alpha.1', '1.0.0-alpha', true],
    ['1.0.0-alpha', '1.0.0-alpha.1', false],
    ['1.0.0-alpha.beta', '1.0.0-alpha.1', true],
    ['1.0.0-alpha.1', '1.0.0-alpha.beta', false],
    ['1.0.0-beta', '1.0.0-alpha.beta', true],
    ['1.0.0-alpha.beta', '1.0.0-beta', false],
    ['1.0.0-beta.11', '1.0.0-beta.2', true],
    ['1.0.0-beta.2', '1.0.0-beta.11', false],
    ['1.0.0-rc.1', '1.0.0-beta.11', true],
    ['1.0.0-110', '1.0.0-12', true],
    ['1.0.0-12', '1.0.0-110', false],
    // Only digits make a number: 1a and a1 are words, after every number.
    ['1.0.0-1a', '1.0.0-2', true],
    ['1.0.0-a1', '1.0.0-2', true],
    ['1.0.0-0a', '1.0.0-1a', false],
    ['1.0.0-a0', '1.0.0-a1', false],
    // A word is after a number even where ASCII puts it first (- before the digits).
    ['1.0.0--x', '1.0.0-1', true],
    ['1.0.0-1', '1.0.0--x', false],
    ['0.1.0', '0.0.0-test', true],
    ['1.3', '1.2.0', false],
    ['1.3.0', 'dev', false],
  ])('%s after %s: %s', (a, b, newer) => {
    expect(isNewer(a, b)).toBe(newer);
  });
});

describe('planUpdateNotice', () => {
  it('without a state: checks, tells nothing', () => {
    expect(planUpdateNotice(undefined, '1.2.0', NOW)).toEqual({ notice: undefined, check: true });
  });

  it('tells of a newer release the last check found, once a day', () => {
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.3.0' }, '1.2.0', NOW)).toEqual({ notice: NOTICE, check: false });
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: 'v1.3.0' }, '1.2.0', NOW).notice).toBe(NOTICE);
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.3.0', notified_at: hoursAgo(23.9) }, '1.2.0', NOW).notice).toBeUndefined();
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.3.0', notified_at: hoursAgo(24) }, '1.2.0', NOW).notice).toBe(NOTICE);
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.3.0', notified_at: hoursAgo(0) }, '1.2.0', NOW).notice).toBeUndefined();
    // Only a leading v goes.
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.3.0-rev.1' }, '1.2.0', NOW).notice).toContain('→ 1.3.0-rev.1 (');
    // A clock put back: told again rather than never.
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.3.0', notified_at: hoursAgo(-1) }, '1.2.0', NOW).notice).toBe(NOTICE);
  });

  it('tells nothing of the same release or an older one', () => {
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.2.0' }, '1.2.0', NOW).notice).toBeUndefined();
    expect(planUpdateNotice({ checked_at: hoursAgo(1), latest: '1.1.0' }, '1.2.0', NOW).notice).toBeUndefined();
    expect(planUpdateNotice({ checked_at: hoursAgo(1) }, '1.2.0', NOW).notice).toBeUndefined();
  });

  it('checks again a day after the last check, or at once when the clock went back', () => {
    expect(planUpdateNotice({ checked_at: hoursAgo(23.9) }, '1.2.0', NOW).check).toBe(false);
    expect(planUpdateNotice({ checked_at: hoursAgo(24) }, '1.2.0', NOW).check).toBe(true);
    expect(planUpdateNotice({ checked_at: hoursAgo(-0.1) }, '1.2.0', NOW).check).toBe(true);
  });
});

describe('the state file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'members-update-'));

  it('is written whole, mode 0600, and read back', async () => {
    const cache = join(dir(), 'members');
    const state: UpdateState = { checked_at: hoursAgo(2), latest: '1.3.0', notified_at: hoursAgo(1) };
    await writeUpdateState(cache, state);
    expect(readUpdateState(cache)).toEqual(state);
    expect(statSync(updateStatePath(cache)).mode & 0o777).toBe(0o600);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
  });

  it('may hold a check alone (no answer yet, nothing shown)', () => {
    const cache = dir();
    writeFileSync(updateStatePath(cache), '{"checked_at":"2026-11-25T10:00:00.000Z"}');
    expect(readUpdateState(cache)).toEqual({ checked_at: '2026-11-25T10:00:00.000Z' });
  });

  it.each([
    ['no file', undefined],
    ['not JSON', '{'],
    ['null', 'null'],
    ['no checked_at', '{"latest":"1.3.0"}'],
    ['a checked_at that is no time', '{"checked_at":"yesterday"}'],
    ['a latest that is no version', '{"checked_at":"2026-11-25T10:00:00.000Z","latest":"1.3.0\\u001b[2J"}'],
    ['a notified_at that is no time', '{"checked_at":"2026-11-25T10:00:00.000Z","notified_at":7}'],
  ])('is none when it holds %s (the next check replaces it)', (_what, text) => {
    const cache = dir();
    if (text !== undefined) writeFileSync(updateStatePath(cache), text);
    expect(readUpdateState(cache)).toBeUndefined();
  });
});

describe('noticeUpdate', () => {
  function terminal(env: Record<string, string | undefined>, isTTY = true) {
    const said: string[] = [];
    let checks = 0;
    return {
      io: { env, stderr: { isTTY, write: (text: string) => said.push(text) }, startUpdateCheck: () => void checks++ },
      said,
      checks: () => checks,
    };
  }

  it('tells what the last check found once, records when, and starts no check within the day', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'members-update-'));
    await writeUpdateState(join(cache, 'members'), { checked_at: hoursAgo(1), latest: '1.3.0' });
    const { io, said, checks } = terminal({ XDG_CACHE_HOME: cache });
    expect(await noticeUpdate(io, { current: '1.2.0', quiet: false, now: NOW })).toBe(`told; last checked ${hoursAgo(1)}`);
    expect(said).toEqual([`${NOTICE}\n`]);
    expect(readUpdateState(join(cache, 'members'))).toEqual({ checked_at: hoursAgo(1), latest: '1.3.0', notified_at: NOW.toISOString() });
    expect(await noticeUpdate(io, { current: '1.2.0', quiet: false, now: new Date(NOW.getTime() + 3600_000) })).toBe(`nothing to tell; last checked ${hoursAgo(1)}`);
    expect(said).toHaveLength(1);
    expect(checks()).toBe(0);
  });

  it('starts a check when none was made, telling nothing', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'members-update-'));
    const { io, said, checks } = terminal({ XDG_CACHE_HOME: cache, MEMBERS_UPDATE_REGISTRY: 'http://127.0.0.1:9/' });
    expect(await noticeUpdate(io, { current: '1.2.0', quiet: false, now: NOW })).toBe('nothing to tell; checking http://127.0.0.1:9/members-cli in the background');
    expect(said).toEqual([]);
    expect(checks()).toBe(1);
  });

  it('off, reads nothing, writes nothing and starts nothing', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'members-update-'));
    await writeUpdateState(join(cache, 'members'), { checked_at: hoursAgo(48), latest: '1.3.0' });
    for (const [env, tty, why] of [
      [{ CI: '1' }, true, 'off (CI is set)'],
      [{ MEMBERS_NO_UPDATE_NOTIFIER: '1' }, true, 'off (MEMBERS_NO_UPDATE_NOTIFIER is set)'],
      [{}, false, 'off (stderr is not a terminal)'],
      [{ MEMBERS_UPDATE_REGISTRY: 'ftp://npm.example.com/' }, true, 'off (the registry is no http(s) URL)'],
    ] as const) {
      const { io, said, checks } = terminal({ XDG_CACHE_HOME: cache, ...env }, tty);
      expect(await noticeUpdate(io, { current: '1.2.0', quiet: false, now: NOW })).toBe(why);
      expect([said, checks()]).toEqual([[], 0]);
    }
    expect(readUpdateState(join(cache, 'members'))).toEqual({ checked_at: hoursAgo(48), latest: '1.3.0' });
  });
});

describe('checkForUpdate', () => {
  it("records the registry's latest version and when, keeping when the notice was shown", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'members-update-'));
    await writeUpdateState(join(cache, 'members'), { checked_at: hoursAgo(30), latest: '1.3.0', notified_at: hoursAgo(25) });
    const asked: string[] = [];
    const before = Date.now();
    await checkForUpdate({ XDG_CACHE_HOME: cache, MEMBERS_UPDATE_REGISTRY: 'http://127.0.0.1:9' }, async (url) => (asked.push(url.href), '1.4.0'));
    const state = readUpdateState(join(cache, 'members'))!;
    expect(asked).toEqual(['http://127.0.0.1:9/members-cli']);
    expect(state).toMatchObject({ latest: '1.4.0', notified_at: hoursAgo(25) });
    expect(Date.parse(state.checked_at)).toBeGreaterThanOrEqual(before);
  });

  it('records an unanswered check too (asked again the next day), keeping what the last answer said', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'members-update-'));
    await writeUpdateState(join(cache, 'members'), { checked_at: hoursAgo(30), latest: '1.3.0' });
    await checkForUpdate({ XDG_CACHE_HOME: cache }, () => Promise.reject(new Error('timeout')));
    const state = readUpdateState(join(cache, 'members'))!;
    expect(state.latest).toBe('1.3.0');
    expect(state.notified_at).toBeUndefined();
    expect(planUpdateNotice(state, '1.2.0', new Date()).check).toBe(false);
  });

  it('records a check with no state before it', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'members-update-'));
    await checkForUpdate({ XDG_CACHE_HOME: cache }, async () => undefined);
    expect(Object.keys(JSON.parse(readFileSync(updateStatePath(join(cache, 'members')), 'utf8')) as object)).toEqual(['checked_at']);
  });

  it('asks nothing when the registry is no http(s) URL', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'members-update-'));
    let asked = false;
    await checkForUpdate({ XDG_CACHE_HOME: cache, MEMBERS_UPDATE_REGISTRY: 'nope' }, async () => ((asked = true), '9.9.9'));
    expect(asked).toBe(false);
    expect(readUpdateState(join(cache, 'members'))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { animationEnabled, colorEnabled } from '../../../src/output/color.js';

const tty = (env: Record<string, string | undefined> = {}, columns: number | undefined = 80, stdoutTTY = true) =>
  ({ stderr: { isTTY: true, columns, write: () => true }, stdout: { isTTY: stdoutTTY }, env });

describe('animation on stderr', () => {
  it('spins only when stdout and stderr are both terminals; a progress bar needs only stderr', () => {
    expect(animationEnabled(tty(), false, 'spinner')).toBe(true);
    expect(animationEnabled(tty({}, 80, false), false, 'spinner')).toBe(false);
    expect(animationEnabled(tty({}, 80, false), false, 'progress')).toBe(true);
  });

  it('never on a terminal that reports no width (it would redraw forever), nor with --quiet', () => {
    expect(animationEnabled(tty({}, 0), false, 'progress')).toBe(false);
    expect(animationEnabled({ ...tty(), stderr: { isTTY: true, write: () => true } }, false, 'spinner')).toBe(false);
    expect(animationEnabled(tty(), true, 'spinner')).toBe(false);
  });

  it('never with TERM=dumb, in CI, or with MEMBERS_NO_SPINNER (screen readers)', () => {
    expect(animationEnabled(tty({ TERM: 'dumb' }), false, 'spinner')).toBe(false);
    expect(animationEnabled(tty({ CI: 'true' }), false, 'progress')).toBe(false);
    expect(animationEnabled(tty({ CI: 'false' }), false, 'progress')).toBe(true);
    expect(animationEnabled(tty({ MEMBERS_NO_SPINNER: '1' }), false, 'spinner')).toBe(false);
  });
});

describe('colour', () => {
  it('honours CLICOLOR=0, CLICOLOR_FORCE and TERM=dumb, below NO_COLOR, FORCE_COLOR and --no-color', () => {
    expect(colorEnabled(true, {}, true)).toBe(true);
    expect(colorEnabled(true, { CLICOLOR: '0' }, true)).toBe(false);
    expect(colorEnabled(true, { TERM: 'dumb' }, true)).toBe(false);
    expect(colorEnabled(false, { CLICOLOR_FORCE: '1' }, true)).toBe(true);
    expect(colorEnabled(false, { CLICOLOR_FORCE: '0' }, true)).toBe(false);
    expect(colorEnabled(true, { CLICOLOR_FORCE: '1', NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled(true, { FORCE_COLOR: '0', CLICOLOR_FORCE: '1' }, true)).toBe(false);
    expect(colorEnabled(true, { CLICOLOR_FORCE: '1' }, false)).toBe(false);
  });
});

describe('--out -', () => {
  it('is stdout, not a file named "-"', async () => {
    const { globalOptions } = await import('../../../src/command-line.js');
    const base = { output: 'table', timeout: '30s', retries: '3' };
    expect(globalOptions({ ...base, out: '-' }).out).toBeUndefined();
    expect(globalOptions({ ...base, out: 'report.csv' }).out).toBe('report.csv');
  });
});

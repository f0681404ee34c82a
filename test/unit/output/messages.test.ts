import { describe, expect, it } from 'vitest';
import { createMessages } from '../../../src/output/messages.js';
import { fakeIo, type FakeIoOptions } from '../../helpers/fake-io.js';

function messages(opts: { quiet?: boolean; color?: boolean } = {}, ioOptions: FakeIoOptions = {}) {
  const fake = fakeIo(ioOptions);
  return { fake, messages: createMessages(fake.io, { quiet: opts.quiet ?? false, color: opts.color ?? true }) };
}

describe('messages', () => {
  it('writes notices, warnings and errors to stderr only', () => {
    const { fake, messages: m } = messages();
    m.notice('→ production (members.example.com)');
    m.warn('the engaged-courses report is deprecated');
    m.error('student not found: maria@example.com');
    expect(fake.stderr()).toBe([
      '→ production (members.example.com)',
      'warning: the engaged-courses report is deprecated',
      'error: student not found: maria@example.com',
      '',
    ].join('\n'));
    expect(fake.stdout()).toBe('');
  });

  it('keeps only errors with --quiet', () => {
    const { fake, messages: m } = messages({ quiet: true }, { stderrTTY: true });
    m.notice('n');
    m.warn('w');
    m.error('e');
    expect(fake.stderr()).toBe('error: e\n');
  });

  it('neutralises escape sequences', () => {
    const { fake, messages: m } = messages();
    m.error('bad name "\x1b[2Jx"\nsecond line');
    expect(fake.stderr()).toBe('error: bad name "x"\nsecond line\n');
  });

  it.each([
    ['stderr is not a terminal', {}, { stdoutTTY: true }],
    ['--quiet', { quiet: true }, { stderrTTY: true }],
  ])('has no spinner or progress bar when %s', async (_name, opts, ioOptions) => {
    const { fake, messages: m } = messages(opts, ioOptions);
    const spinner = await m.spinner('Fetching students');
    spinner.update('Fetching page 2');
    spinner.stop();
    const progress = await m.progress(3);
    progress.tick();
    progress.stop();
    expect(fake.stderr()).toBe('');
    expect(fake.stdout()).toBe('');
  });

  it('spins on a terminal stderr, then clears its line', async () => {
    const { fake, messages: m } = messages({ color: false }, { stdoutTTY: true, stderrTTY: true, columns: 80 });
    const spinner = await m.spinner('Fetching students');
    expect(fake.stderr()).toContain('Fetching students');
    spinner.update('Fetching page 2');
    spinner.stop();
    // The last thing written erases the spinner's line: cursor to column 1, clear to the end of the line.
    expect(fake.stderr().endsWith('\x1b[1G\x1b[0K')).toBe(true);
    expect(fake.stdout()).toBe('');
  });

  it('clears the spinner line before a message and draws the spinner again below it', async () => {
    const { fake, messages: m } = messages({ color: false }, { stdoutTTY: true, stderrTTY: true, columns: 80 });
    const spinner = await m.spinner('Fetching students');
    m.warn('retrying after HTTP 429');
    spinner.stop();
    const [, after = ''] = fake.stderr().split('\x1b[1G\x1b[0Kwarning: retrying after HTTP 429\n');
    expect(after).toContain('Fetching students');
  });

  // ora looped forever at full CPU on a 0-column terminal (line count = width / 0): such a terminal gets no animation.
  it.each([0, undefined])('a terminal that reports %s columns gets no spinner or bar, only the messages', async (columns) => {
    const { fake, messages: m } = messages({ color: false }, { stdoutTTY: true, stderrTTY: true, columns });
    const spinner = await m.spinner('Fetching students');
    spinner.update('Fetching page 2');
    m.notice('a notice redraws the line');
    spinner.stop();
    const bar = await m.progress(3);
    bar.tick();
    m.notice('another');
    bar.stop();
    expect(fake.stderr()).toBe('a notice redraws the line\nanother\n');
  });

  it('clears the bar line before a message and draws the bar again below it', async () => {
    const { fake, messages: m } = messages({}, { stdoutTTY: true, stderrTTY: true, columns: 80 });
    const progress = await m.progress(2);
    progress.tick();
    m.warn('row 3: unknown product');
    progress.stop();
    // Saving the cursor again keeps cli-progress from returning to (and erasing) the message line when it stops.
    const [, after = ''] = fake.stderr().split('\x1b[1G\x1b[2Kwarning: row 3: unknown product\n\x1b7');
    expect(after).toContain('1/2');
  });

  it('draws a progress bar on a terminal stderr and clears it when stopped', async () => {
    const { fake, messages: m } = messages({}, { stdoutTTY: true, stderrTTY: true, columns: 80 });
    const progress = await m.progress(2);
    expect(fake.stderr()).toContain('0/2');
    progress.tick();
    progress.tick();
    progress.stop();
    expect(fake.stderr()).toContain('2/2');
    // Back to the saved position (the bar's line), column 1, line cleared.
    expect(fake.stderr().endsWith('\x1b8\x1b[1G\x1b[2K')).toBe(true);
    expect(fake.stdout()).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { pagedDestination, pagerCommand } from '../../../src/output/pager.js';
import { ExitCode, StdoutClosedError } from '../../../src/lib/errors.js';
import type { Io, OutStream } from '../../../src/lib/io.js';

describe('pagerCommand', () => {
  it.each([
    [{}, true, 'less -FRX'],
    [{ PAGER: 'more' }, true, 'more'],
    [{ PAGER: 'more', MEMBERS_PAGER: 'most -s' }, true, 'most -s'],
    [{ PAGER: 'more', MEMBERS_PAGER: '' }, true, undefined],
    [{ PAGER: '  ' }, true, undefined],
    [{ PAGER: 'cat' }, true, undefined],
    [{}, false, undefined],
    [{ TERM: 'dumb' }, true, undefined],
    [{ TERM: 'dumb', PAGER: 'more' }, true, 'more'],
    [{ TERM: 'dumb', MEMBERS_PAGER: 'most' }, true, 'most'],
    [{ TERM: 'xterm' }, true, 'less -FRX'],
  ])('%j, pager on: %s → %s', (env, enabled, command) => {
    expect(pagerCommand(env, enabled)).toBe(command);
  });
});

/** A terminal of `rows` rows, and a pager that takes `take` chunks before it quits. */
function terminal(rows: number | undefined, { take = Infinity, starts = true } = {}) {
  const screen: string[] = [];
  const paged: string[] = [];
  let closed = false;
  let started = 0;
  const stdout: OutStream = { write: (text) => screen.push(String(text)) > 0, isTTY: true, columns: 20, rows };
  const io = {
    stdout,
    async startPager() {
      started++;
      if (!starts) return undefined;
      return {
        stdin: {
          write: (text: string | Uint8Array) => {
            paged.push(String(text));
            closed = paged.length >= take;
            return true;
          },
          get closed() {
            return closed;
          },
          end: () => undefined,
        },
        exited: Promise.resolve(),
      };
    },
  } as unknown as Io;
  return { io, screen, paged, started: () => started };
}

describe('pagedDestination', () => {
  it('prints output that fits the screen (rows - 1 lines) straight to the terminal', async () => {
    const t = terminal(4);
    const out = pagedDestination(t.io, 'less');
    await out.write('a\nb\nc\n');
    await out.close();
    expect(t.started()).toBe(0);
    expect(t.screen.join('')).toBe('a\nb\nc\n');
  });

  it.each([0, undefined])('never pages on a terminal whose height is unknown (rows %s)', async (rows) => {
    const t = terminal(rows);
    const out = pagedDestination(t.io, 'less');
    await out.write('a\n'.repeat(500));
    await out.close();
    expect(t.started()).toBe(0);
    expect(t.screen.join('')).toBe('a\n'.repeat(500));
  });

  it('hands everything to the pager once it is longer than the screen, counting wrapped lines', async () => {
    const t = terminal(4);
    const out = pagedDestination(t.io, 'less');
    await out.write('a\n');
    await out.write(`${'x'.repeat(45)}\n`);
    await out.write('b\n');
    await out.close();
    expect(t.started()).toBe(1);
    expect(t.screen).toEqual([]);
    expect(t.paged.join('')).toBe(`a\n${'x'.repeat(45)}\nb\n`);
  });

  it('a person quitting the pager ends the output with exit 0, not 141', async () => {
    const t = terminal(2, { take: 1 });
    const out = pagedDestination(t.io, 'less');
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    await out.write('a\nb\nc\n');
    await turn();
    await out.write('d\n');
    await turn();
    const error = await out.close().catch((failure: unknown) => failure);
    expect(t.paged).toEqual(['a\nb\nc\n']);
    expect(error).toBeInstanceOf(StdoutClosedError);
    expect((error as StdoutClosedError).exitCode).toBe(ExitCode.ok);
  });

  it('a pager that cannot start leaves the output to the terminal, whole', async () => {
    const t = terminal(2, { starts: false });
    const out = pagedDestination(t.io, 'nope');
    await out.write('a\nb\nc\n');
    await out.write('d\n');
    await out.close();
    expect(t.screen.join('')).toBe('a\nb\nc\nd\n');
  });
});

import { describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../../src/lib/io.js';
import { hasControls, printable, printableLine } from '../../../src/output/sanitize.js';
import { render } from './setup.js';

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';

describe('printable: server text on its way to a terminal', () => {
  it('drops whole escape sequences: OSC 52 (clipboard), CSI colours and cursor moves, their 8-bit forms', () => {
    expect(printable(`bad${OSC52} request`)).toBe('bad request');
    expect(printable('\u001b]52;c;x\u001b\\ok')).toBe('ok');
    expect(printable('\u001b[31mred\u001b[0m \u001b[2K\u001b[1Aup')).toBe('red up');
    expect(printable('\u009b31mred')).toBe('red');
    expect(printable('a\u001bcb')).toBe('ab');
  });

  it('a carriage return cannot hide what came before it; other controls show as U+FFFD', () => {
    expect(printable('real error\r fake success')).toBe('real error\uFFFD fake success');
    expect(printable('a\u0000b\u0007c\u007fd\u0085e')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
  });

  it('removes bidi overrides and isolates and zero-width characters', () => {
    expect(printable('Keep \u202estudent\u202c and\u2066 x\u2069 \u200bz\u200c\u200d\u2060\ufeff')).toBe('Keep student and x z');
    expect(printable('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069')).toBe('');
  });

  it('keeps newlines and tabs in messages, puts a prompt on one line, leaves plain text alone', () => {
    expect(printable('422\n  email: taken\tok')).toBe('422\n  email: taken\tok');
    expect(printableLine('Delete\nstudent\r\tx?')).toBe('Delete student\uFFFD x?');
    expect(printable('Ação — José 🎓 中文')).toBe('Ação — José 🎓 中文');
  });

  it('hasControls tells a URL to refuse from a clean one', () => {
    expect(hasControls('https://x.test/magic/abc')).toBe(false);
    expect(hasControls('https://x.test/magic/abc\u001b]52;c;x\u0007')).toBe(true);
    expect(hasControls('https://x.test/\u202emagic')).toBe(true);
  });
});

describe('csv and json printed to a terminal', () => {
  // A hostile student: OSC 52 (clipboard), a CR that hides the real text, an 8-bit CSI, a bidi override, a zero-width space.
  const hostile = { id: 's1', first_name: `Ana${OSC52}`, last_name: 'Lima\r\u001b[2KKept', note: '\u009b2Jx\u202egnp.exe\u200b', ['k\u001b[1m']: 'v' };
  // eslint-disable-next-line no-control-regex
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]/;
  const view = { noun: 'students', columns: [{ header: 'id', path: 'id' }] };
  const print = (output: 'json' | 'ndjson' | 'csv', stdoutTTY: boolean, extra: Partial<GlobalOptions> = {}) =>
    render({ output, ...extra }, (out) => out.one(hostile, view), { stdoutTTY });

  it('json and ndjson escape what a terminal would act on, and still parse to exactly what the server sent', async () => {
    for (const output of ['json', 'ndjson'] as const) {
      const { stdout } = await print(output, true);
      expect(stdout).not.toMatch(RAW);
      expect(stdout).toContain('\\u009b2Jx\\u202egnp.exe\\u200b');
      expect(JSON.parse(stdout)).toEqual(hostile);
    }
  });

  it('csv cells and header names go through the sanitizer on a terminal, --csv-raw too', async () => {
    for (const csvRaw of [false, true]) {
      const { stdout } = await print('csv', true, { csvRaw });
      // eslint-disable-next-line no-control-regex
      expect(stdout).not.toMatch(/[\u001b\u009b\u202e\u200b]/);
      // The 8-bit CSI goes whole (\u009b2J), the CR shows as U+FFFD.
      expect(stdout).toBe('id,first_name,last_name,note,k\ns1,Ana,Lima\uFFFDKept,xgnp.exe,v\n');
    }
  });

  it('a pipe or a file gets the bytes as sent', async () => {
    expect(JSON.parse((await print('ndjson', false)).stdout)).toEqual(hostile);
    expect((await print('ndjson', false)).stdout).toContain('\u202e');
    expect((await print('csv', false)).stdout).toContain(OSC52);
  });
});

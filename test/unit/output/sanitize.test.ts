import { describe, expect, it } from 'vitest';
import { hasControls, printable, printableLine } from '../../../src/output/sanitize.js';

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

import { describe, expect, it } from 'vitest';
import { drawBar } from '../../../src/output/bar.js';

describe('drawBar', () => {
  it.each([
    [1, 10, '██████████'],
    [0.5, 10, '█████'],
    [0.55, 10, '█████▌'],
    [0.01, 10, '▏'],
    [0.0125, 10, '▏'],
    [1 / 80, 10, '▏'],
    [7 / 80, 10, '▉'],
    [2, 4, '████'],
  ])('%d of %d characters is %j', (fraction, width, expected) => {
    expect(drawBar(fraction, width)).toBe(expected);
  });

  it.each([[0, 10], [-1, 10], [Number.NaN, 10], [0.5, 0], [0.001, 10]])('%d of %d draws nothing', (fraction, width) => {
    expect(drawBar(fraction, width)).toBe('');
  });

  it('in ASCII, whole characters, rounded', () => {
    expect(drawBar(0.55, 10, { ascii: true })).toBe('######');
    expect(drawBar(0.54, 10, { ascii: true })).toBe('#####');
    expect(drawBar(1, 3, { ascii: true })).toBe('###');
    expect(drawBar(0.04, 10, { ascii: true })).toBe('');
  });

  it('is never wider than its width', () => {
    for (let width = 1; width <= 40; width++) {
      for (let step = 0; step <= 100; step++) expect(drawBar(step / 100, width).length).toBeLessThanOrEqual(width);
    }
  });
});

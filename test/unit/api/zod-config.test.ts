/**
 * bin/members.js turns zod's JIT off by writing the global that `z.config()`
 * writes, before zod is loaded. This pins that zod adopts that object, set
 * before it loads (this file runs in a process of its own: vitest's forks).
 */
import { describe, expect, it } from 'vitest';

const preset = { jitless: true };
(globalThis as { __zod_globalConfig?: object }).__zod_globalConfig = preset;

describe("zod's global config", () => {
  it('is the object found on globalThis.__zod_globalConfig when zod loads', async () => {
    const z = await import('zod');
    expect(z.config()).toBe(preset);
    expect(z.config().jitless).toBe(true);
  });
});

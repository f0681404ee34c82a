/**
 * bin/members.js turns zod's JIT off by writing the global that `z.config()`
 * writes, before zod is loaded. This pins that zod reads it.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

describe("zod's global config", () => {
  it('is the object on globalThis.__zod_globalConfig', () => {
    const global = (globalThis as { __zod_globalConfig?: object }).__zod_globalConfig;
    expect(global).toBeDefined();
    expect(z.config()).toBe(global);
  });
});

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

  it('is as the run set it after the schemas load: the report\'s row schema is compiled with the JIT, then the JIT is off again', async () => {
    const { ReportItem } = await import('../../../src/api/endpoints/schemas.js');
    const z = await import('zod');
    expect(z.config().jitless).toBe(true);
    expect(ReportItem.safeParse({ id: 'a|b', user_id: 'a', course_id: 'b', extra: 1 }).data).toEqual({ id: 'a|b', user_id: 'a', course_id: 'b', extra: 1 });
    expect(ReportItem.safeParse({ id: 1 }).success).toBe(false);
  });
});

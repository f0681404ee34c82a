/**
 * A PRODUCT or COURSE that matches nothing suggests the nearest titles by
 * edit distance (issue 38, item 6), through the binary against the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess } from './harness.js';

const sandbox = useSandboxProcess(['--students', '20', '--seed', '5']);
const members = (args: string[]) => run(args, { env: sandbox.env });

describe('did you mean', () => {
  it('students grant with a product typed "pyton": exit 2, Python Pro suggested, nothing sent', async () => {
    const [student] = (await sandboxGet<{ data: Array<{ email: string }> }>(sandbox, '/api/v1/students?per_page=1')).body.data;
    const { code, stderr } = await members(['students', 'grant', student?.email as string, 'pyton', '--yes']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: no product "pyton" \(by id, title or start of title\)\. Did you mean:\n {2}\S+ {2}Python Pro\n/);
  });

  it('products get and courses accesses keep the lookup\'s exit 4, with the nearest titles', async () => {
    const product = await members(['products', 'get', 'pyton']);
    expect(product.code).toBe(4);
    expect(product.stderr).toMatch(/no product has that title either \(GET [^)]+\)\. Did you mean:\n {2}\S+ {2}Python Pro\n/);
    const course = await members(['courses', 'accesses', 'programacao em pyton']);
    expect(course.code).toBe(4);
    expect(course.stderr).toMatch(/Did you mean:\n {2}\S+ {2}Programação em Python\n/);
  });
});

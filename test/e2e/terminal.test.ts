/**
 * A support person at a terminal (issue 14): the questions a change asks,
 * Ctrl-C at any of them, and spinners only where both stdout and stderr are
 * the terminal. Run on a pseudo-terminal (util-linux `script`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { HAS_SCRIPT, run, sandboxGet, useSandboxProcess, tempDir, terminalSession, runInTerminal } from './harness.js';

interface Sub { product_id: string; active: number | null; status?: string | null; accession_date: string | null; expiration_date: string | null }
interface Student { id: string; email: string; subscriptions?: Sub[] }

let students: Student[];
let env: Record<string, string>;

const held = async (studentId: string, productId: string) =>
  (await sandboxGet<{ data: Sub }>(sandbox, `/api/v1/students/${studentId}/products/${productId}`)).body?.data;

const sandbox = useSandboxProcess(['--students', '30', '--seed', '14'], { enabled: HAS_SCRIPT });

beforeAll(async () => {
  env = { ...sandbox.env, MEMBERS_CONFIG_DIR: tempDir('members-tty-') };
  students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
});

/** Each test its own student, so that the tests run in any order: the delete takes the last one. */
const lapsed = (index: number) => students.slice(0, -1).flatMap((student) => (student.subscriptions ?? [])
  .filter((sub) => sub.active === 0 && sub.accession_date).slice(0, 1).map((sub) => ({ student, sub })))[index]!;

describe.skipIf(!HAS_SCRIPT)('at a terminal', () => {
  it('students delete asks to type the e-mail: anything else changes nothing (exit 2); the e-mail deletes', async () => {
    const student = students.at(-1)!;
    const wrong = terminalSession(['students', 'delete', student.email, '--no-color'], { env });
    await wrong.waitFor(/Type \S+ to confirm:/);
    expect(wrong.output()).toContain(`Type ${student.email} to confirm:`);
    wrong.type('y\r');
    expect(await wrong.exited).toBe(2);
    expect(wrong.output()).toContain('cancelled: nothing was changed');
    expect((await run(['students', 'get', student.id], { env })).code).toBe(0);

    const right = terminalSession(['students', 'delete', student.email, '--no-color'], { env });
    await right.waitFor(/to confirm:/);
    right.type(`${student.email}\r`);
    expect(await right.exited).toBe(0);
    expect((await run(['students', 'get', student.id], { env })).code).toBe(4);
  });

  it.each([
    ['a delete', (s: Student) => ['students', 'delete', s.email]],
    ['a renewal', (s: Student, productId: string) => ['students', 'grant', s.email, productId]],
  ])('Ctrl-C at the question of %s is a quiet cancel: exit 130, no stack trace, nothing changed', async (_what, args) => {
    const { student, sub } = lapsed(0);
    const session = terminalSession([...args(student, sub.product_id), '--no-color'], { env });
    await session.waitFor(/(to confirm:|\(y\/N\))/);
    session.type('\x03');
    expect(await session.exited).toBe(130);
    expect(session.output()).toContain('cancelled at the prompt: nothing was changed');
    expect(session.output()).not.toMatch(/unexpected|stack trace/);
    expect(await held(student.id, sub.product_id)).toEqual(expect.objectContaining({ active: 0, accession_date: sub.accession_date }));
  });

  it('a grant over a subscription without access asks to renew it; yes restores access', async () => {
    const { student, sub } = lapsed(1);
    const session = terminalSession(['students', 'grant', student.email, sub.product_id, '--no-color'], { env });
    expect(sub.status).toBe('refunded');
    // The question names the status the renewal resets (issue 30): a yes to it is the leave to reset it.
    await session.waitFor(/Revoke it and grant\s+it again\s+—\s+its\s+status\s+refunded\s+becomes\s+active[^?]*\?/);
    session.type('y\r');
    expect(await session.exited).toBe(0);
    expect(session.output()).toContain('✓ Renewed');
    expect(await held(student.id, sub.product_id)).toEqual(expect.objectContaining({ active: 1, accession_date: sub.accession_date }));
  });

  it('spins only when stdout and stderr are both the terminal: none into a pipe', async () => {
    const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Fetching students/;
    const both = await runInTerminal(['students', 'list', '--no-color'], { env });
    expect(both.code).toBe(0);
    expect(both.output).toMatch(spinner);
    const piped = await runInTerminal(['students', 'list', '--all', '--no-color'], { env, pipeStdoutTo: 'cat' });
    expect(piped.code).toBe(0);
    expect(piped.output).toContain(students[1]!.email);
    expect(piped.output).not.toMatch(spinner);
    // eslint-disable-next-line no-control-regex
    expect(piped.output).not.toMatch(/\x1b\[/);
  });
});

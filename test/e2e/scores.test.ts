/** `members scores get|set` end to end against `members sandbox`. */
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess, tempDir } from './harness.js';

interface Student { id: string; email: string; document: string | null; reference_id: string | null }
interface Score { score: number; posts: number; comments: number; replies: number }

let students: Student[];

const members = (args: string[], env: Record<string, string> = {}) => run(args, { env: { ...sandbox.env, ...env } });
const scoreOf = async (id: string) => (await sandboxGet<{ data: Score }>(sandbox, `/api/v1/students/${id}/scores`)).body.data;

const sandbox = useSandboxProcess(['--students', '20', '--seed', '3']);

beforeAll(async () => {
  students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100')).body.data;
});

describe('scores', () => {
  it('get by e-mail, as a table', async () => {
    const student = students[0] as Student;
    const score = await scoreOf(student.id);
    const { code, stdout } = await members(['scores', 'get', student.email]);
    expect(code).toBe(0);
    expect(stdout).toBe(`SCORE     ${score.score}\nPOSTS     ${score.posts}\nCOMMENTS  ${score.comments}\nREPLIES   ${score.replies}\n`);
  });

  it('set by document: sent as an integer, and the new score holds', async () => {
    const student = students.find((s) => s.document !== null) as Student;
    const { code, stdout } = await members(['scores', 'set', `doc:${student.document}`, '321', '-o', 'json', '--reason', 'e2e']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ score: 321 });
    expect((await scoreOf(student.id)).score).toBe(321);
  });

  it('a score that is not an integer is exit 2 and nothing changes', async () => {
    const student = students[1] as Student;
    const before = await scoreOf(student.id);
    const { code, stderr } = await members(['scores', 'set', student.id, '1e3']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid SCORE "1e3": expected an integer\n');
    expect(await scoreOf(student.id)).toEqual(before);
  });

  it('an unknown student is exit 4', async () => {
    const { code, stderr } = await members(['scores', 'get', 'ref:NO-SUCH-REF']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: student with reference NO-SUCH-REF not found (GET /api/v1/students/reference/NO-SUCH-REF)\n');
  });

  it('set records the score before, and undo puts it back (refused once the score moved on)', async () => {
    const student = students[5] as Student;
    const before = (await scoreOf(student.id)).score;
    const env = { MEMBERS_CONFIG_DIR: tempDir('members-scores-') };
    expect((await members(['scores', 'set', student.email, String(before + 7), '-q'], env)).code).toBe(0);
    const history = JSON.parse((await members(['history', '--student', student.id, '-o', 'json'], env)).stdout) as Array<{ id: string; before: { score: number } }>;
    expect(history[0]?.before).toEqual({ score: before });

    const undo = await members(['undo', history[0]!.id, '--yes'], env);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain(`is ${before} again`);
    expect((await scoreOf(student.id)).score).toBe(before);

    // Undoing it twice is refused by the log; a moved-on score by the server state.
    expect((await members(['undo', history[0]!.id, '--yes'], env)).code).toBe(2);
    expect((await members(['scores', 'set', student.email, String(before + 1), '-q'], env)).code).toBe(0);
    expect((await members(['scores', 'set', student.email, String(before + 2), '-q'], env)).code).toBe(0);
    const [, older] = JSON.parse((await members(['history', '--student', student.id, '-o', 'json'], env)).stdout) as Array<{ id: string }>;
    const conflict = await members(['undo', older!.id, '--yes'], env);
    expect(conflict.code).toBe(5);
    expect(conflict.stderr).toContain(`is ${before + 2} now, not ${before + 1}`);
  });
});

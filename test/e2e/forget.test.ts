/**
 * LGPD: erasure means erasure (issue 30), end to end against the default
 * sandbox and its Laravel flavour. `students delete --forget` leaves none of
 * the person's data in audit.jsonl (ids, actions, times and reasons stay),
 * `history --forget` does the same for a student deleted earlier, and undo
 * of a forgotten delete says it cannot recreate the person.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, run } from './harness.js';
import { DESK_FLAVOR_NAMES, deskSandbox } from './desk-flavors.js';

interface Student {
  id: string; first_name: string; last_name: string; email: string; phone: string | null; birth: string | null; document: string | null;
  reference_id: string | null; subscriptions: Array<{ product_id: string }>;
}
interface Product { id: string; title: string }
interface Line { id: string; time: string; action: string; result: string; student?: string; student_id?: string; reason?: string; forgotten?: { fields: string[] }; before?: Record<string, unknown> }

const SEED = ['--students', '40', '--seed', '8'];
/** The default sandbox the seeded records are read from: no test changes it (each changes a sandbox of its own). */
const reference = deskSandbox('default', SEED);
let students: Student[];
let products: Product[];

beforeAll(async () => {
  // The same seed: the default sandbox's records, with plain dates, are every flavour's when a test starts.
  students = await allPages<Student>(reference, '/api/v1/students?with=subscriptions');
  products = await allPages<Product>(reference, '/api/v1/products');
});

/** Everything personal of a student, as a record or a reason could hold it. */
const personal = (s: Student) => [
  `${s.first_name} ${s.last_name}`, s.email, s.phone, s.birth, s.document, s.document?.replace(/\D/g, ''), s.reference_id,
].filter((value): value is string => Boolean(value));

const complete = (s: Student) => Boolean(s.phone && s.birth && s.document && s.reference_id && /^\d{3}\./.test(s.document));

describe.each(DESK_FLAVOR_NAMES)('against the %s sandbox', (flavor) => {
  const sandbox = deskSandbox(flavor, SEED, { each: true });
  const members = (args: string[]) => run(args, { env: sandbox.env });
  const log = () => readFileSync(join(sandbox.configDir, 'audit.jsonl'), 'utf8');
  const lines = () => log().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
  let maria: Student;
  let joao: Student;
  let ana: Student;
  beforeAll(() => {
    [maria, joao, ana] = students.filter(complete) as [Student, Student, Student];
    expect(ana).toBeDefined();
  });
  const unheld = (s: Student) => products.find((p) => !s.subscriptions.some((sub) => sub.product_id === p.id))!;

  it('students delete --forget: none of the person\'s data is left in audit.jsonl; ids, actions, times and reasons stay', async () => {
    const product = unheld(maria);
    const changes = [
      ['students', 'grant', maria.email, product.id, '--reason', `ticket 51 from ${maria.email}`],
      ['students', 'revoke', `doc:${maria.document}`, product.id, '--yes', '--reason', 'refund'],
      ['scores', 'set', `ref:${maria.reference_id}`, '7'],
      ['students', 'grant', joao.email, unheld(joao).id, '--reason', `asked by ${maria.first_name} ${maria.last_name}`],
    ];
    for (const args of changes) {
      const result = await members(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const before = lines();
    // The request names the person and whoever asked for them: the forget's own record keeps none of it.
    const request = `LGPD request 2211 from ${maria.first_name} ${maria.last_name} <${maria.email}>, CPF ${maria.document}, via lawyer rui@costa.adv.br, +55 (21) 3456-7890`;
    const deleted = await members(['students', 'delete', maria.email, '--forget', '--yes', '--reason', request]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(`✓ Deleted student ${maria.first_name} ${maria.last_name} <${maria.email}>`);
    expect(deleted.stderr).toMatch(new RegExp(`✓ Forgot student ${maria.id} in this machine's audit log: 5 records no longer hold`));

    const text = log();
    for (const value of [...personal(maria), 'rui@costa.adv.br', '3456-7890']) expect(text.toLowerCase(), value).not.toContain(value.toLowerCase());
    // João's own data stays.
    expect(text).toContain(joao.email);
    const after = lines();
    expect(after.slice(0, before.length).map(({ id, time, action, result }) => ({ id, time, action, result })))
      .toEqual(before.map(({ id, time, action, result }) => ({ id, time, action, result })));
    const [grant, revoke, score, other, del, forget] = after;
    expect(grant).toMatchObject({ student_id: maria.id, reason: 'ticket 51 from [forgotten]', forgotten: { fields: ['student', 'reason'] } });
    expect(revoke).toMatchObject({ student_id: maria.id, reason: 'refund', forgotten: { fields: ['student'] } });
    expect(score).toMatchObject({ action: 'scores.set', student_id: maria.id });
    expect(other).toMatchObject({ student: joao.email, reason: 'asked by [forgotten]' });
    const redacted = 'LGPD request 2211 from [forgotten] <[forgotten]>, CPF [forgotten], via lawyer [forgotten], [forgotten]';
    expect(del).toMatchObject({ action: 'delete', student_id: maria.id, reason: redacted, before: { id: maria.id } });
    expect(Object.keys(del!.before!)).toEqual(['id']);
    expect(forget).toMatchObject({ command: 'students delete --forget', action: 'forget', result: 'forgotten', student_id: maria.id, reason: redacted, counts: { records: 5, intents: 0 } });

    // History still finds them by id, and names the student by id.
    const history = await members(['history', '--student', maria.id, '-o', 'json']);
    expect(history.code).toBe(0);
    expect((JSON.parse(history.stdout) as Line[]).map((line) => line.action)).toEqual(['forget', 'delete', 'scores.set', 'revoke', 'grant']);
    const table = await members(['history', '--student', maria.id, '--fields', 'action,student']);
    expect(table.stdout.split('\n').slice(1, 3)).toEqual([expect.stringMatching(new RegExp(`^forget +${maria.id}$`)), expect.stringMatching(new RegExp(`^delete +${maria.id}$`))]);
  });

  it('a delete undone (the student back under a new id), or a transfer --delete-source undone, then delete --forget: no record keeps any of the person\'s values', async () => {
    const person = (tag: string, document: string) => ({
      first_name: 'Otília', last_name: `Brandão${tag}`, email: `otilia.${tag}.${flavor}@example.com`, phone: `(61) 95591-228${tag.length}`, birth: '1977-07-07', document,
    });
    const values = (p: ReturnType<typeof person>) => [p.first_name, p.last_name, p.email, p.phone, p.birth, p.document, p.document.replace(/\D/g, '')];
    const create = async (p: ReturnType<typeof person>) => {
      const created = await members(['students', 'create', '--first-name', p.first_name, '--last-name', p.last_name, '--email', p.email, '--phone', p.phone, '--birth', p.birth, '--document', p.document, '-o', 'json']);
      expect(created.code, created.stderr).toBe(0);
      return (JSON.parse(created.stdout) as Student).id;
    };
    const undoLast = async (pick: (line: Line) => boolean) => {
      const undone = await members(['undo', lines().findLast(pick)!.id, '--yes']);
      expect(undone.code, undone.stderr).toBe(0);
    };

    const deleted = person('Del', '346.719.699-39');
    const oldId = await create(deleted);
    expect((await members(['students', 'delete', deleted.email, '--yes'])).code).toBe(0);
    await undoLast((line) => line.action === 'delete' && line.student_id === oldId);
    const back = JSON.parse((await members(['students', 'show', deleted.email, '-o', 'json'])).stdout) as Student;
    expect(back.id).not.toBe(oldId);
    const forgot = await members(['students', 'delete', back.id, '--forget', '--yes']);
    expect(forgot.code, forgot.stderr).toBe(0);
    let text = log();
    for (const value of values(deleted)) expect(text.toLowerCase(), value).not.toContain(value.toLowerCase());
    expect(lines().find((line) => line.action === 'delete' && line.student_id === oldId)?.before).toEqual({ id: oldId, reference_id: null });

    const moved = person('Transfer', '529.982.247-25');
    await create(moved);
    expect((await members(['students', 'grant', moved.email, products[0]!.id, '--yes', '--reason', `ticket of ${moved.first_name} ${moved.last_name}`])).code).toBe(0);
    const to = `moved.to.${flavor}@example.com`;
    expect((await members(['students', 'create', '--first-name', 'Novo', '--last-name', 'Destino', '--email', to])).code).toBe(0);
    const transfer = await members(['students', 'transfer', moved.email, to, '--delete-source', '--yes']);
    expect(transfer.code, transfer.stderr).toBe(0);
    await undoLast((line) => line.action === 'bulk');
    const source = JSON.parse((await members(['students', 'show', moved.email, '-o', 'json'])).stdout) as Student;
    expect((await members(['students', 'delete', source.id, '--forget', '--yes'])).code).toBe(0);
    text = log();
    for (const value of values(moved)) expect(text.toLowerCase(), value).not.toContain(value.toLowerCase());
  });

  it('undo of the forgotten delete says it cannot recreate the person (exit 2, nothing sent)', async () => {
    const forgot = await members(['students', 'delete', maria.email, '--forget', '--yes']);
    expect(forgot.code, forgot.stderr).toBe(0);
    const del = lines().find((line) => line.action === 'delete' && line.student_id === maria.id)!;
    const undo = await members(['undo', del.id, '--yes']);
    expect(undo.code).toBe(2);
    expect(undo.stderr).toContain(`change ${del.id} deleted a student whose personal data was then erased`);
    expect(undo.stderr).toContain('undo cannot recreate the person');
    const forget = lines().find((line) => line.action === 'forget')!;
    expect((await members(['undo', forget.id, '--yes'])).code).toBe(2);
  });

  it('history --forget STUDENT_ID: for a student deleted earlier; refused for one that still exists, or a key that is not an id', async () => {
    const deleted = await members(['students', 'delete', ana.email, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(log()).toContain(ana.email);
    const alive = await members(['history', '--forget', joao.id, '--yes']);
    expect(alive.code).toBe(5);
    expect(alive.stderr).toContain(`student ${joao.id} still exists on the platform`);
    const byEmail = await members(['history', '--forget', ana.email, '--yes']);
    expect(byEmail.code).toBe(2);
    expect(byEmail.stderr).toContain("--forget takes the student's id");
    expect((await members(['history', '--forget', ana.id])).code).toBe(2);
    const request = `LGPD request 2212 from ${ana.first_name} ${ana.last_name}, ${ana.email}, CPF ${ana.document?.replace(/\D/g, '')}, phone ${ana.phone}, asked by joana@desk.example`;
    const forgot = await members(['history', '--forget', ana.id, '--yes', '--reason', request]);
    expect(forgot.code, forgot.stderr).toBe(0);
    const text = log();
    for (const value of [...personal(ana), 'joana@desk.example']) expect(text.toLowerCase(), value).not.toContain(value.toLowerCase());
    expect(lines().at(-1)).toMatchObject({
      command: 'history --forget', action: 'forget', student_id: ana.id, counts: { records: 1 },
      reason: 'LGPD request 2212 from [forgotten], [forgotten], CPF [forgotten], phone [forgotten], asked by [forgotten]',
    });
    const again = await members(['history', '--forget', ana.id, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`holds no personal data of student ${ana.id}; nothing to forget`);
  });
});

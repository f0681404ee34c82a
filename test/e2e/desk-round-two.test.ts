/**
 * Support desk, round two (issue 30, part A): tickets as they arrive, typed
 * as support staff type them, through the built binary against the sandbox
 * and its Laravel flavour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, startSandbox, tempDir, type SandboxProcess } from './harness.js';

interface Sub { product_id: string }
interface Student { id: string; email: string; full_name: string; phone: string | null; document: string | null; subscriptions?: Sub[] }
interface Product { id: string; title: string }

const FLAVOURS = [{ name: 'default', args: [] }, { name: 'laravel', args: ['--flavor', 'laravel'] }];

describe.each(FLAVOURS)('against the $name sandbox', ({ args }) => {
  let sandbox: SandboxProcess;
  let configDir: string;
  let students: Student[];
  let products: Product[];
  /** Hands out a different student to each test that changes one. */
  let nextFree = 0;

  const members = (argv: string[], input?: string) => run(argv, { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir }, input });
  const requests = async () => (await sandboxGet<{ requests: Record<string, number> }>(sandbox, '/__sandbox/stats')).body.requests;
  const changes = async () => Object.entries(await requests()).filter(([route]) => !route.startsWith('GET ')).reduce((sum, [, n]) => sum + n, 0);
  const subscriptionsOf = async (student: Student) =>
    (await sandboxGet<{ data: Sub[] }>(sandbox, `/api/v1/students/${student.id}/products`)).body.data.map((s) => s.product_id).sort();
  const free = (test: (s: Student) => boolean = () => true) => {
    const found = students.slice(nextFree).find(test);
    if (!found) throw new Error('no free sandbox student left for this test');
    nextFree = students.indexOf(found) + 1;
    return found;
  };
  const atDomain = (domain: string) => free((s) => s.email === s.email.toLowerCase() && s.email.endsWith(`@${domain}`));

  beforeAll(async () => {
    sandbox = await startSandbox(['--students', '60', '--seed', '30', ...args]);
    configDir = tempDir('members-desk2-');
    students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
    products = (await sandboxGet<{ data: Product[] }>(sandbox, '/api/v1/products?per_page=100')).body.data;
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  describe('a mistyped e-mail', () => {
    it.each([
      ['gmail.com', 'gmial.com'], ['hotmail.com', 'hotmal.com'], ['yahoo.com.br', 'yahoo.com'], ['outlook.com', 'outlook.con'],
    ])('magic-link at %s typed as %s: exit 4, the student meant and the command to re-run; no link made', async (domain, typo) => {
      const student = atDomain(domain);
      const typed = student.email.replace(`@${domain}`, `@${typo}`);
      const before = await changes();
      const { code, stdout, stderr } = await members(['magic-link', typed, '--expire-in', '2h']);
      expect(code).toBe(4);
      expect(stdout).toBe('');
      expect(stderr).toContain(`error: student with e-mail ${typed} not found (POST /api/v1/students/email/${encodeURIComponent(typed)}/magic-link)\n`
        + `Did you mean: ${student.email} (${student.full_name})?\n  members magic-link ${student.email} --expire-in 2h\n`);
      // The 404 of the POST itself only: no link was made for anyone.
      expect(await changes()).toBe(before + 1);
      const history = await members(['history', '-o', 'json']);
      expect(JSON.parse(history.stdout)).toEqual([]);
    });

    it('grant and show find the student meant from a slip in the local part (the list is short: compared whole), and change nothing', async () => {
      const student = free((s) => s.email.split('@')[0]!.length >= 8);
      const [local, domain] = student.email.split('@') as [string, string];
      const typed = `${local.slice(0, 3)}${local.slice(4)}@${domain}`;
      const product = products.find((p) => !(student.subscriptions ?? []).some((s) => s.product_id === p.id))!;
      const held = await subscriptionsOf(student);
      const grant = await members(['students', 'grant', typed, product.id, '--yes']);
      expect(grant.code).toBe(4);
      expect(grant.stderr).toContain(`Did you mean: ${student.email} (${student.full_name})?\n  members students grant ${student.email} ${product.id} --yes\n`);
      expect(await subscriptionsOf(student)).toEqual(held);
      const show = await members(['students', 'show', typed.toUpperCase()]);
      expect(show.code).toBe(4);
      expect(show.stderr).toContain(`Did you mean: ${student.email} (${student.full_name})?\n  members students show ${student.email}\n`);
    });

    it('an e-mail near nobody says how far it looked and how to search', async () => {
      const { code, stderr } = await members(['students', 'get', 'zz.nobody.at.all@gmial.com']);
      expect(code).toBe(4);
      expect(stderr).toContain(`No student has a close e-mail (usual slips of the domain tried, all ${students.length} e-mails compared); `
        + 'to search by a part of the name or e-mail: members students search "zz.nobody.at.all"');
    });
  });

  it('a CPF with wrong check digits is said to be invalid in the "not found"', async () => {
    const { code, stderr } = await members(['students', 'get', '346.719.699-07']);
    expect(code).toBe(4);
    expect(stderr).toContain('346.719.699-07 is not a valid CPF: its check digits would be -39');
  });

  describe('students search', () => {
    it('by a phone typed as people type it: the PHONE column shows the match', async () => {
      const student = students.find((s) => s.phone && /^\+55 \d{2} \d{5}-\d{4}$/.test(s.phone))!;
      const [, area, number] = /^\+55 (\d{2}) (.*)$/.exec(student.phone!)!;
      const { code, stdout, stderr } = await members(['students', 'search', `(${area}) ${number}`]);
      expect(code, stderr).toBe(0);
      const [header, row] = stdout.split('\n');
      expect(header).toMatch(/^NAME +E-MAIL +PHONE +DOCUMENT/);
      expect(row).toContain(student.phone);
      expect(row).toContain(student.email);
    });

    it('two students of one name are told apart by their phones; a search that matched names only has no PHONE column otherwise', async () => {
      const twin = free((s) => s.phone !== null && /^\S+ \S+$/.test(s.full_name));
      const [first, last] = twin.full_name.split(' ') as [string, string];
      const created = await members(['students', 'create', '--first-name', first, '--last-name', last, '--email', `twin.${twin.id.slice(0, 6)}@example.com`, '--phone', '+55 11 90000-0001', '-q']);
      expect(created.code, created.stderr).toBe(0);
      const { stdout } = await members(['students', 'search', twin.full_name]);
      expect(stdout.split('\n')[0]).toMatch(/ PHONE /);
      expect(stdout).toContain(twin.phone);
      expect(stdout).toContain('+55 11 90000-0001');
      const single = await members(['students', 'search', twin.email]);
      expect(single.stdout.split('\n')[0]).not.toMatch(/PHONE/);
    });
  });
});

describe('a student list too long to compare every e-mail', () => {
  let sandbox: SandboxProcess;

  beforeAll(async () => {
    sandbox = await startSandbox(['--students', '1100', '--seed', '30']);
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  it('tries the slips of the domain only (a few lookups), reads one page to learn the size, and says how to search', async () => {
    const typed = 'zz.nobody.at.all@gmial.con';
    const { code, stderr } = await run(['-v', 'students', 'get', typed], { env: sandbox.env });
    expect(code).toBe(4);
    expect(stderr).toContain('No usual slip of the domain matches a student, and the student list has 1,100 students, too many to compare every e-mail; '
      + 'to look through it: members students search "zz.nobody.at.all"');
    const gets = stderr.split('\n').filter((line) => line.startsWith('GET '));
    expect(gets.filter((line) => line.includes('/api/v1/students?'))).toHaveLength(1);
    expect(gets.length).toBeLessThanOrEqual(6);
  });
});

/**
 * Support desk, round two (issue 30, part A): tickets as they arrive, typed
 * as support staff type them, through the built binary against the sandbox
 * and its Laravel flavour.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HAS_SCRIPT, allPages, run, runInTerminal, sandboxGet, useSandboxProcess, tempDir, terminalSession } from './harness.js';

interface Sub { product_id: string; active: number; status: string }
interface Student { id: string; email: string; full_name: string; phone: string | null; document: string | null; reference_id: string | null; subscriptions?: Sub[] }
interface Product { id: string; title: string }

const withAccess = (student: Student) => (student.subscriptions ?? []).filter((sub) => sub.active === 1);

const FLAVOURS = [{ name: 'default', args: [] }, { name: 'laravel', args: ['--flavor', 'laravel'] }];

describe.each(FLAVOURS)('against the $name sandbox', ({ args }) => {
  /** Each test's own: an audit log that holds only the changes the test made. */
  let configDir: string;
  let students: Student[];
  let products: Product[];
  /** The students a test changed or named already: each test picks others. */
  const used = new Set<Student>();

  const members = (argv: string[], input?: string) => run(argv, { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir }, input });
  /** The students on the platform now: the seeded ones, and any a test created. */
  const everyone = () => allPages<Student>(sandbox, '/api/v1/students?with=subscriptions');
  const requests = async () => (await sandboxGet<{ requests: Record<string, number> }>(sandbox, '/__sandbox/stats')).body.requests;
  const changes = async () => Object.entries(await requests()).filter(([route]) => !route.startsWith('GET ')).reduce((sum, [, n]) => sum + n, 0);
  const held = async (student: Student) => (await sandboxGet<{ data: Sub[] }>(sandbox, `/api/v1/students/${student.id}/products`)).body.data;
  const subscriptionsOf = async (student: Student) => (await held(student)).map((s) => s.product_id).sort();
  const historyOf = async (student: Student) =>
    JSON.parse((await members(['history', '--student', student.id, '-o', 'json'])).stdout) as Array<{ action: string; product_id: string; result: string }>;
  /** A student with access to one product, without any subscription to two others, and one without access to a fourth. */
  const withMix = () => {
    const student = free((s) => (s.subscriptions ?? []).some((sub) => sub.active === 1) && (s.subscriptions ?? []).some((sub) => sub.active === 0));
    const subs = student.subscriptions ?? [];
    const none = products.filter((p) => !subs.some((sub) => sub.product_id === p.id));
    return {
      student, on: products.find((p) => subs.some((sub) => sub.product_id === p.id && sub.active === 1))!,
      off: products.find((p) => subs.some((sub) => sub.product_id === p.id && sub.active === 0))!, fresh: [none[0]!, none[1]!],
    };
  };
  const free = (test: (s: Student) => boolean = () => true) => {
    const found = students.find((s) => !used.has(s) && test(s));
    if (!found) throw new Error('no free sandbox student left for this test');
    used.add(found);
    return found;
  };
  const atDomain = (domain: string) => free((s) => s.email === s.email.toLowerCase() && s.email.endsWith(`@${domain}`));

  const sandbox = useSandboxProcess(['--students', '60', '--seed', '30', ...args]);

  beforeAll(async () => {
    students = await everyone();
    products = (await sandboxGet<{ data: Product[] }>(sandbox, '/api/v1/products?per_page=100')).body.data;
  });
  beforeEach(() => {
    configDir = tempDir('members-desk2-');
  });
  afterEach(() => rmSync(configDir, { recursive: true, force: true }));

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
      expect(stderr).toContain(`No student has a close e-mail (usual slips of the domain tried, all ${(await everyone()).length} e-mails compared); `
        + 'to search by a part of the name or e-mail: members students search "zz.nobody.at.all"');
    });
  });

  describe('a CPF with wrong check digits', () => {
    /** The same CPF with its last check digit changed: wrong, and the right one is the student's. */
    const mistyped = (cpf: string) => `${cpf.slice(0, -1)}${(Number(cpf.at(-1)) + 1) % 10}`;
    const digitsOf = (cpf: string) => cpf.replace(/\D/g, '');

    it.each([
      [['students', 'get'], '346.719.699-07'], [['students', 'show'], '34671969907'], [['magic-link'], '346.719.699-07'],
      [['students', 'grant'], '34671969907', 'product'], [['students', 'revoke'], '346.719.699-07', 'product', '--yes'],
    ] as Array<[string[], string, ...string[]]>)('%s %s held by nobody: exit 4, not a valid CPF with the check digits it would have, ask again; nothing sent', async (command, typed, ...rest) => {
      const argv = [...command, typed, ...rest.map((arg) => (arg === 'product' ? products[0]!.id : arg))];
      const before = await changes();
      const { code, stdout, stderr } = await members(argv);
      expect(code).toBe(4);
      expect(stdout).toBe('');
      const spelling = typed.includes('-') ? '-39' : '39';
      expect(stderr).toContain(`${typed} is not a valid CPF: its check digits would be ${spelling} (a typo?)`);
      expect(stderr).toContain(`No student has ${typed.slice(0, -2)}39 either (its nine digits with the right check digits): ask the student for the number again`);
      expect(await changes()).toBe(before);
    });

    it('the student holding the right check digits is offered with the command to re-run, in the spelling typed; nothing changed', async () => {
      const student = free((s) => /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(s.document ?? '') && Boolean(s.full_name));
      const product = products.find((p) => !(student.subscriptions ?? []).some((s) => s.product_id === p.id))!;
      const held = await subscriptionsOf(student);
      const typed = mistyped(student.document!);
      const grant = await members(['students', 'grant', typed, product.id, '--yes']);
      expect(grant.code).toBe(4);
      expect(grant.stderr).toContain(`${typed} is not a valid CPF: its check digits would be -${student.document!.slice(-2)} (a typo?)\n`
        + `Did you mean: ${student.document} (${student.full_name})?\n  members students grant ${student.document} ${product.id} --yes\n`);
      expect(await subscriptionsOf(student)).toEqual(held);
      const link = await members(['magic-link', digitsOf(typed), '-o', 'json']);
      expect(link.code).toBe(4);
      expect(link.stdout).toBe('');
      const error = JSON.parse(link.stderr.trimEnd().split('\n').at(-1)!) as { error: { exit_code: number; rerun: string } };
      expect(error.error).toMatchObject({ exit_code: 4, rerun: `members magic-link ${digitsOf(student.document!)} -o json` });
      expect(JSON.parse((await members(['history', '--student', student.id, '-o', 'json'])).stdout)).toEqual([]);
      // A bulk row says it on its line.
      const file = join(configDir, 'cpf-typo.csv');
      writeFileSync(file, `student,product_id\n${typed},${product.id}\n`);
      const bulk = await members(['students', 'grant', '--file', file, '--dry-run', '-o', 'json']);
      expect(bulk.code).toBe(7);
      expect(JSON.parse(bulk.stdout)).toEqual([expect.objectContaining({
        result: 'failed', message: expect.stringContaining(`is not a valid CPF: its check digits would be -${student.document!.slice(-2)} (a typo?) Did you mean: ${student.document} (${student.full_name})?`),
      })]);
    });

    it('transfer and subscriptions extend --student offer the student meant too (a CPF, an e-mail); nothing planned or changed', async () => {
      const student = free((s) => /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(s.document ?? '') && Boolean(s.full_name) && withAccess(s).length > 0);
      const other = free((s) => s.email.endsWith('@gmail.com') && s.email === s.email.toLowerCase());
      const product = products.find((p) => p.id === withAccess(student)[0]!.product_id)!;
      const before = await changes();
      const typed = mistyped(student.document!);
      const transfer = await members(['students', 'transfer', typed, other.email, '--dry-run']);
      expect(transfer.code).toBe(4);
      expect(transfer.stderr).toContain(`Did you mean: ${student.document} (${student.full_name})?\n  members students transfer ${student.document} ${other.email} --dry-run\n`);
      const typo = other.email.replace('@gmail.com', '@gmial.com');
      const to = await members(['students', 'transfer', student.document!, typo, '--dry-run']);
      expect(to.code).toBe(4);
      expect(to.stderr).toContain(`Did you mean: ${other.email} (${other.full_name})?\n  members students transfer ${student.document} ${other.email} --dry-run\n`);
      const extend = await members(['subscriptions', 'extend', '--product', product.id, '--days', '3', '--student', digitsOf(typed), '--dry-run']);
      expect(extend.code).toBe(4);
      expect(extend.stderr).toContain(`Did you mean: ${digitsOf(student.document!)} (${student.full_name})?\n`
        + `  members subscriptions extend --product ${product.id} --days 3 --student ${digitsOf(student.document!)} --dry-run\n`);
      expect(await changes()).toBe(before);
    });

    it('a student stored with a mistyped CPF is found by it in either spelling: it is looked up before it is explained', async () => {
      const created = await members(['students', 'create', '--first-name', 'Rita', '--last-name', 'Typo', '--email', 'rita.typo@example.com', '--document', '123.456.789-00', '-o', 'json']);
      expect(created.code, created.stderr).toBe(0);
      const { id } = JSON.parse(created.stdout) as { id: string };
      for (const typed of ['123.456.789-00', '12345678900']) {
        const { code, stdout, stderr } = await members(['students', 'get', typed, '-o', 'json']);
        expect(code, stderr).toBe(0);
        expect((JSON.parse(stdout) as { id: string }).id).toBe(id);
      }
    });
  });

  describe('several products in one command', () => {
    it('grant STUDENT P1 P2 P3 by titles: one line per product, one audit record per change; a lapsed one fails alone (exit 7) until --renew', async () => {
      const { student, on, off, fresh } = withMix();
      const argv = ['students', 'grant', student.email, fresh[0]!.title.toUpperCase(), on.title, fresh[1]!.id, off.title, '-o', 'json'];
      const first = await members(argv);
      expect(first.code, first.stderr).toBe(7);
      const lines = JSON.parse(first.stdout) as Array<{ product_id: string; product: string; result: string; message: string }>;
      expect(lines.map((l) => [l.product_id, l.product, l.result])).toEqual([
        [fresh[0]!.id, fresh[0]!.title, 'granted'], [on.id, on.title, 'skipped'], [fresh[1]!.id, fresh[1]!.title, 'granted'], [off.id, off.title, 'failed'],
      ]);
      expect(lines[3]!.message).toContain('pass --renew');
      expect(first.stderr).toContain(`4 products for ${student.full_name} <${student.email}>: 2 granted, 1 skipped, 1 failed\n`);
      expect((await historyOf(student)).map((r) => [r.action, r.product_id]).sort()).toEqual([['grant', fresh[0]!.id], ['grant', fresh[1]!.id]].sort());

      const again = await members([...argv, '--renew', '--include-status-changes']);
      expect(again.code, again.stderr).toBe(0);
      expect((JSON.parse(again.stdout) as Array<{ result: string }>).map((l) => l.result)).toEqual(['skipped', 'skipped', 'skipped', 'renewed']);
      expect((await held(student)).filter((sub) => [...fresh, on, off].some((p) => p.id === sub.product_id)).every((sub) => sub.active === 1)).toBe(true);
      expect(await historyOf(student)).toHaveLength(3);
    });

    it('revoke STUDENT P1 P2 P3 (a refunded combo): one question for all — refused off a terminal, nothing sent — then with --yes one line and one record each', async () => {
      const { student, on, fresh } = withMix();
      const granted = await members(['students', 'grant', student.id, fresh[0]!.id, fresh[1]!.id, '-q']);
      expect(granted.code, granted.stderr).toBe(0);
      const before = await subscriptionsOf(student);
      const refused = await members(['students', 'revoke', student.email, on.id, fresh[0]!.title, fresh[1]!.title]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`error: Revoke "${on.title}" (${on.id}), "${fresh[0]!.title}" (${fresh[0]!.id}) and "${fresh[1]!.title}" (${fresh[1]!.id}) `
        + `from ${student.full_name} <${student.email}>: confirmation needed but stdin is not a terminal; pass --yes to proceed`);
      expect(await subscriptionsOf(student)).toEqual(before);

      const revoked = await members(['students', 'revoke', student.email, on.id, fresh[0]!.title, fresh[1]!.title, '--yes', '--reason', 'combo refunded']);
      expect(revoked.code, revoked.stderr).toBe(0);
      const rows = revoked.stdout.trimEnd().split('\n');
      expect(rows).toHaveLength(4);
      expect(rows.slice(1).map((row) => /\b(revoked|skipped|failed)\b/.exec(row)?.[1])).toEqual(['revoked', 'revoked', 'revoked']);
      expect(await subscriptionsOf(student)).toEqual(before.filter((id) => ![on.id, fresh[0]!.id, fresh[1]!.id].includes(id)));
      expect((await historyOf(student)).filter((r) => r.action === 'revoke').map((r) => r.product_id).sort()).toEqual([on.id, fresh[0]!.id, fresh[1]!.id].sort());
    });

    it.runIf(HAS_SCRIPT)('on a terminal, one y/N lists every product to revoke', async () => {
      const { student, on, off } = withMix();
      const session = terminalSession(['students', 'revoke', student.email, on.title, off.title], { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir }, columns: 300 });
      await session.waitFor(/\(y\/N\)/);
      expect(session.output()).toContain(`Revoke "${on.title}" (${on.id}) and "${off.title}" (${off.id}) from ${student.full_name} <${student.email}>?`);
      session.type('y\r');
      expect(await session.exited).toBe(0);
      expect(await subscriptionsOf(student)).not.toContain(on.id);
    });

    it.runIf(HAS_SCRIPT)('on a terminal, a No to one product\'s renewal skips that product only: the others are granted, exit 0', async () => {
      const { student, off, fresh } = withMix();
      const session = terminalSession(['students', 'grant', student.email, off.title, fresh[0]!.title], { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir }, columns: 300 });
      await session.waitFor(/\(y\/N\)/);
      expect(session.output()).toContain(`${student.full_name} <${student.email}> has "${off.title}" (${off.id}) without the access asked`);
      session.type('n\r');
      expect(await session.exited).toBe(0);
      const screen = stripVTControlCharacters(session.output());
      expect(screen).toContain(`not renewed: you answered No for "${off.title}" (${off.id}); nothing sent`);
      expect(screen).toContain(`2 products for ${student.full_name} <${student.email}>: 1 skipped, 1 granted, 0 failed`);
      expect(screen).not.toContain('cancelled');
      const now = await held(student);
      expect(now.find((sub) => sub.product_id === fresh[0]!.id)?.active).toBe(1);
      expect(now.find((sub) => sub.product_id === off.id)?.active).toBe(0);
      expect((await historyOf(student)).map((r) => [r.action, r.product_id])).toEqual([['grant', fresh[0]!.id]]);
    });

    it('the same product twice, or one that does not exist: exit 2 naming each, nothing sent', async () => {
      const { student, fresh } = withMix();
      const before = await changes();
      const { code, stderr } = await members(['students', 'grant', student.email, fresh[0]!.id, fresh[0]!.title, 'Curso Que Não Existe']);
      expect(code).toBe(2);
      expect(stderr).toContain(`name the same product, "${fresh[0]!.title}" (${fresh[0]!.id}); give it once`);
      expect(stderr).toContain('no product "Curso Que Não Existe"');
      expect(await changes()).toBe(before);
    });
  });

  describe('a spreadsheet export from the sales tool', () => {
    /** A pt-BR export: `;`, Portuguese headers, extra columns, DD/MM/YYYY, and the title typed with – where the real one has —. */
    const salesFile = (rows: string[][]) => {
      const file = join(configDir, `vendas-${used.size}.csv`);
      writeFileSync(file, ['Nome;E-mail;Produto;Data da compra;Válido até;Valor', ...rows.map((row) => row.join(';'))].join('\r\n'));
      return file;
    };
    const dashed = () => products.find((p) => p.title.includes(' — '))!;
    const asTyped = (title: string) => title.replace(' — ', ' – ').toLowerCase();

    it('is granted as written with --ignore-extra-columns: columns said, dates read as DD/MM/YYYY, the title found despite its dash', async () => {
      const product = dashed();
      const student = free((s) => !(s.subscriptions ?? []).some((sub) => sub.product_id === product.id));
      const file = salesFile([[student.full_name, student.email, asTyped(product.title), '05/03/2026', '31/12/2026', '297,00']]);

      const refused = await members(['students', 'grant', '--file', file]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('unknown columns "Nome", "Valor" in the header (line 1)');
      expect(refused.stderr).toContain('--ignore-extra-columns');

      const dry = await members(['students', 'grant', '--file', file, '--ignore-extra-columns', '--dry-run', '-o', 'json']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stderr).toContain(`Columns of ${file}: "E-mail" as student, "Produto" as product_id, "Data da compra" as accession_date, `
        + '"Válido até" as expiration_date; ignored (--ignore-extra-columns): "Nome", "Valor"\n');
      expect(JSON.parse(dry.stdout)).toEqual([expect.objectContaining({
        line: 2, product_id: product.id, result: 'granted', message: expect.stringContaining(`would grant product "${product.title}" (${product.id})`),
      })]);
      expect(await subscriptionsOf(student)).not.toContain(product.id);

      const granted = await members(['students', 'grant', '--file', file, '--ignore-extra-columns', '-o', 'json']);
      expect(granted.code, granted.stderr).toBe(0);
      expect(JSON.parse(granted.stdout)).toEqual([expect.objectContaining({ line: 2, product_id: product.id, result: 'granted' })]);
      const held = await members(['students', 'products', student.email, '-o', 'json']);
      expect(JSON.parse(held.stdout)).toContainEqual(expect.objectContaining({ product_id: product.id, accession_date: '2026-03-05', expiration_date: '2026-12-31' }));
    });

    it('an impossible date, or one that is MM/DD, is an error with its line; nothing is sent', async () => {
      const product = dashed();
      const [a, b] = [free(), free()];
      const before = await changes();
      const file = salesFile([
        [a.full_name, a.email, asTyped(product.title), '31/02/2026', '', '10'],
        [b.full_name, b.email, asTyped(product.title), '03/05/2026', '03/25/2027', '10'],
      ]);
      const { code, stderr } = await members(['students', 'grant', '--file', file, '--ignore-extra-columns']);
      expect(code).toBe(2);
      expect(stderr).toContain('error: line 2: invalid accession_date "31/02/2026": read as DD/MM/YYYY (day 31, month 2), no such date');
      expect(stderr).toContain('error: line 3: invalid expiration_date "03/25/2027": read as DD/MM/YYYY (day 3, month 25), no such date; dates are never read as MM/DD');
      expect(await changes()).toBe(before);
    });
  });

  describe('history and students show on a terminal', () => {
    it.runIf(HAS_SCRIPT)('history keeps the REASON column on a narrow terminal; the others go first', async () => {
      const { student, fresh } = withMix();
      const granted = await members(['students', 'grant', student.email, fresh[0]!.id, '--reason', 'ticket 4411', '-q']);
      expect(granted.code, granted.stderr).toBe(0);
      const { code, output } = await runInTerminal(['history', '--student', student.email], {
        env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir, PAGER: 'cat' }, columns: 100,
      });
      expect(code).toBe(0);
      const header = output.split('\n').find((line) => line.includes('TIME'))!;
      expect(header).toContain('REASON');
      expect(header).not.toContain('USER');
      expect(output).toContain('ticket 4411');
      // 80 columns: the audit id stays, to be copied into `members undo`.
      const [latest] = JSON.parse((await members(['history', '--student', student.email, '-o', 'json'])).stdout) as Array<{ id: string }>;
      const narrow = await runInTerminal(['history', '--student', student.email], { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir, PAGER: 'cat' }, columns: 80 });
      expect(stripVTControlCharacters(narrow.output).split('\n').find((line) => line.includes('TIME'))).toMatch(/│ REASON +│ ID +│/);
      expect(narrow.output).toContain(latest!.id);
    });

    it.runIf(HAS_SCRIPT)('students show says "no change from this machine" after the card, not above it', async () => {
      const student = free();
      const { code, output } = await runInTerminal(['students', 'show', student.email], {
        env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir, PAGER: 'cat' }, columns: 160,
      });
      expect(code).toBe(0);
      const notice = output.indexOf('No change to this student made from this machine');
      expect(notice).toBeGreaterThan(output.indexOf(student.email));
      expect(notice).toBeGreaterThan(output.lastIndexOf('│'));
    });
  });

  it.each(['update', 'edit', 'rename'])('students %s: the API cannot change a student; exit 2, what to do instead, nothing sent', async (verb) => {
    const student = students[0]!;
    const before = Object.values(await requests()).reduce((sum, n) => sum + n, 0);
    const { code, stdout, stderr } = await members(['students', verb, student.email, '--email', 'new@example.com']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`error: members students ${verb}: the platform's API has no way to change a student's e-mail, document or name`);
    expect(stderr).toContain("change it in the platform's admin panel");
    expect(stderr).toContain('members students transfer FROM TO');
    expect(stderr).not.toContain('Did you mean create');
    expect(Object.values(await requests()).reduce((sum, n) => sum + n, 0)).toBe(before);
  });

  describe('students search', () => {
    /** `students search QUERY` at a terminal of 80 columns (or `columns`): its header line and the screen, escape sequences removed. */
    const searchAt80 = async (query: string, columns = 80) => {
      const { code, output } = await runInTerminal(['students', 'search', query], { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir, PAGER: 'cat' }, columns });
      expect(code, output).toBe(0);
      const screen = stripVTControlCharacters(output);
      return { screen, header: screen.split(/\r?\n/).find((line) => line.includes('│ NAME'))! };
    };

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
      // At an 80-column terminal, too: the phone is what tells them apart.
      if (!HAS_SCRIPT) return;
      const narrow = await searchAt80(twin.full_name);
      expect(narrow.header).toMatch(/│ PHONE +│/);
      expect(narrow.screen).toContain(twin.phone);
      expect(narrow.screen).toContain('+55 11 90000-0001');
    });

    it.runIf(HAS_SCRIPT)('at an 80-column terminal a phone search keeps its PHONE column: the unmatched document, reference and date go instead', async () => {
      const student = students.find((s) => s.phone && /^\+55 \d{2} \d{5}-\d{4}$/.test(s.phone) && s.email.length <= 30)!;
      const [, area, number] = /^\+55 (\d{2}) (.*)$/.exec(student.phone!)!;
      const { header, screen } = await searchAt80(`(${area}) ${number}`);
      expect(header).toMatch(/^│ NAME +│ E-MAIL +│ PHONE +│$/);
      expect(screen).toContain(student.phone);
      expect(screen).toContain(student.email);
    });

    it('by a reference, typed whole or by its digits; at a narrow terminal its REFERENCE column stays, the unmatched document goes', async () => {
      const student = students.find((s) => s.reference_id && s.email.length <= 30)!;
      const found = async (query: string) => {
        const { code, stdout, stderr } = await members(['students', 'search', query, '-o', 'json']);
        expect(code, stderr).toBe(0);
        return JSON.parse(stdout) as Student[];
      };
      for (const query of [student.reference_id!, student.reference_id!.toLowerCase()]) expect((await found(query)).map((s) => s.id)).toEqual([student.id]);
      // By digits, a phone or a document holding them is found too.
      const number = student.reference_id!.replace(/\D/g, '');
      const byDigits = await found(number);
      expect(byDigits.map((s) => s.id)).toContain(student.id);
      for (const other of byDigits) expect([other.phone, other.document, other.reference_id].some((value) => value?.replace(/\D/g, '').includes(number))).toBe(true);
      if (!HAS_SCRIPT) return;
      const { header, screen } = await searchAt80(student.reference_id!, 70);
      expect(header).toMatch(/^│ NAME +│ E-MAIL +│ REFERENCE +│$/);
      expect(screen).toContain(student.email);
    });

    it('-o json and -o csv keep every field of the student, whatever matched', async () => {
      const student = students.find((s) => s.phone && s.document && s.reference_id)!;
      const json = await members(['students', 'search', student.phone!, '-o', 'json']);
      const [found] = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
      expect(found).toMatchObject({ id: student.id, email: student.email, phone: student.phone, document: student.document, reference_id: student.reference_id });
      const csv = await members(['students', 'search', student.phone!, '-o', 'csv']);
      const byName = await members(['students', 'search', student.email, '-o', 'csv']);
      expect(csv.stdout.split('\n')[0]).toBe(byName.stdout.split('\n')[0]);
      expect(csv.stdout.split('\n')[0]).toMatch(/^id,.*,email,.*,phone,.*,document,reference_id,/);
    });
  });
});

describe('a student list too long to compare every e-mail', () => {
  const sandbox = useSandboxProcess(['--students', '1100', '--seed', '30']);

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

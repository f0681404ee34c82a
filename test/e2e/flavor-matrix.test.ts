/**
 * Every command of the contract, in every output format, against every
 * sandbox variant (issue 13): the friendly default, and Laravel 8's shapes
 * (paginate() and simplePaginate(), bare links, cursor pages without a
 * cursor, route misses on %2F, date casts from servers east and west of UTC,
 * integer subscription ids, string per_page, per-minute throttling).
 *
 * Reads: each variant serves the same seeded data, so a command must print
 * exactly what it prints against the default sandbox (the reference), in
 * the same format and time zone, and lists hold every record once. The
 * machine formats keep the fields every variant sends alike (--fields: no
 * subscription ids, no datetime casts); tables are the support-desk views,
 * for a user in a zone where the server's midnight is another day.
 * Changes: each variant has a sandbox of its own for them; every format
 * creates, grants, revokes, undoes and imports for students of its own.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, run, sandboxGet, useSandboxProcess, tempDir, type RunResult, type SandboxProcess } from './harness.js';
import { FLAVORS, FORMATS, SEED, readRecords, type FlatRecord, type Format } from './flavors.js';

interface Subscription { id: string | number; product_id: string; status: string; active: number; accession_date: string; expiration_date: string | null }
interface Student { id: string; email: string; document: string | null; subscriptions: Subscription[] }
interface Listed { id: string; title: string }

/** What the reference (default) sandbox holds, read from its API: the arguments and the record counts. */
const truth = {
  students: [] as Student[],
  products: [] as Listed[],
  courses: [] as Listed[],
  subscriptions: 0,
  keptAfterCancel: 0,
  reportRows: 0,
};

/** Directories of this file's own (config dirs, --out files, bulk files), removed at the end. */
const scratch: string[] = [];
const scratchDir = () => {
  const dir = tempDir('members-matrix-');
  scratch.push(dir);
  return dir;
};
const outDir = scratchDir();
/** Every read run, by sandbox, command line, format and (for tables) zone: the reference's are shared by the variants. */
const outputs = new Map<string, Promise<RunResult>>();

const reference = useSandboxProcess(SEED);

beforeAll(async () => {
  truth.students = await allPages<Student>(reference, '/api/v1/students?with=subscriptions');
  truth.products = await allPages<Listed>(reference, '/api/v1/products');
  truth.courses = await allPages<Listed>(reference, '/api/v1/courses');
  const subscriptions = truth.students.flatMap((s) => s.subscriptions);
  truth.subscriptions = subscriptions.length;
  truth.keptAfterCancel = subscriptions.filter((s) => s.active === 1 && ['canceled', 'refunded'].includes(s.status)).length;
  const report = await sandboxGet<{ data: unknown[]; next_cursor: string | null }>(
    reference, `/api/partners/reports/engaged-courses/${reference.developerToken}/${reference.platformToken}?top_courses=10&limit=500`,
  );
  expect(report.body.next_cursor).toBeNull();
  truth.reportRows = report.body.data.length;
});

afterAll(async () => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** The arguments of the read cases, from the reference's data (the same in every variant). */
const pick = {
  /** A student holding several products. */
  holder: () => truth.students.find((s) => s.subscriptions.length >= 2) as Student,
  /** A student whose document has a "/", which Laravel cannot route. */
  slashed: () => truth.students.find((s) => s.document?.includes('/')) as Student,
  /** A student holding a canceled subscription that kept access. */
  keeper: () => truth.students.find((s) => s.subscriptions.some((sub) => sub.active === 1 && sub.status === 'canceled')) as Student,
};

interface ReadCase {
  name: string;
  /** The command line for one sandbox (a subscription id is each variant's own). */
  argv: (on: SandboxProcess) => string[] | Promise<string[]>;
  /** --fields for json, ndjson and csv. */
  fields: string;
  /** Records a list must hold, each once. */
  count?: () => number;
  /** The command prints one record. */
  one?: boolean;
  /** Prints JSON for table too (the raw `api`): --fields in every format. */
  raw?: boolean;
  /** Written with --out FILE (a cron export), read back from the file. */
  out?: boolean;
}

/** A sandbox's id of the holder's first subscription (an integer on Laravel). */
async function firstSubscriptionId(on: SandboxProcess): Promise<string> {
  const holder = pick.holder();
  const productId = (holder.subscriptions[0] as Subscription).product_id;
  return String((await sandboxGet<{ data: { id: string | number } }>(on, `/api/v1/students/${holder.id}/products/${productId}`)).body.data.id);
}

const READS: ReadCase[] = [
  { name: 'students list --all', argv: () => ['students', 'list', '--all', '--per-page', '10'], fields: 'id,email,birth,document,created_at', count: () => truth.students.length },
  {
    name: 'students list --limit --with-subscriptions', argv: () => ['students', 'list', '--limit', '25', '--per-page', '10', '--with-subscriptions'],
    fields: 'id,email,birth', count: () => 25,
  },
  { name: 'students list --page', argv: () => ['students', 'list', '--page', '2', '--per-page', '10'], fields: 'id,email', count: () => 10 },
  { name: 'students get by e-mail', argv: () => ['students', 'get', pick.holder().email], fields: 'id,email,birth,document,reference_id', one: true },
  { name: 'students get doc: with a "/"', argv: () => ['students', 'get', `doc:${pick.slashed().document}`], fields: 'id,email,document', one: true },
  {
    name: 'students products', argv: () => ['students', 'products', pick.holder().email],
    fields: 'product_id,status,active,accession_date,expiration_date', count: () => pick.holder().subscriptions.length,
  },
  { name: 'students search', argv: () => ['students', 'search', 'silva'], fields: 'id,email,birth' },
  { name: 'students show', argv: () => ['students', 'show', pick.keeper().email], fields: 'id,email,birth', one: true },
  { name: 'scores get', argv: () => ['scores', 'get', pick.holder().email], fields: 'score,posts,comments,replies', one: true },
  { name: 'products list --all', argv: () => ['products', 'list', '--all', '--per-page', '4'], fields: 'id,title,created_at', count: () => truth.products.length },
  { name: 'products get', argv: () => ['products', 'get', (truth.products[0] as Listed).id], fields: 'id,title,description', one: true },
  {
    name: 'subscriptions list --all', argv: () => ['subscriptions', 'list', '--all', '--per-page', '15'],
    fields: 'student.id,product_id,status,active,accession_date,expiration_date', count: () => truth.subscriptions,
  },
  {
    name: 'subscriptions list --status --access', argv: () => ['subscriptions', 'list', '--status', 'canceled,refunded', '--access', 'active'],
    fields: 'student.id,product_id,status,accession_date,expiration_date', count: () => truth.keptAfterCancel,
  },
  {
    name: 'subscriptions get', argv: async (on) => ['subscriptions', 'get', await firstSubscriptionId(on)],
    fields: 'student.email,product_id,status,accession_date,expiration_date', one: true,
  },
  { name: 'courses list --all', argv: () => ['courses', 'list', '--all', '--per-page', '2'], fields: 'id,title', count: () => truth.courses.length },
  { name: 'courses get', argv: () => ['courses', 'get', (truth.courses[1] as Listed).id], fields: 'id,title,slug', one: true },
  { name: 'courses accesses', argv: () => ['courses', 'accesses', (truth.courses[1] as Listed).id], fields: 'id,email,course.last_access_at,course.finished' },
  {
    name: 'report engaged-courses --out', argv: () => ['report', 'engaged-courses', '--top', '10', '--limit', '7'],
    fields: 'id,course_completion_percent,registration_date', count: () => truth.reportRows, out: true,
  },
  {
    name: 'api --paginate', argv: () => ['api', '/api/v1/students', '-f', 'per_page=10', '-f', 'with=subscriptions', '--paginate'],
    fields: 'id,email', count: () => truth.students.length, raw: true,
  },
  { name: 'api (one record)', argv: () => ['api', `/api/v1/students/${pick.holder().id}`], fields: 'data.id,data.email,data.document', raw: true, one: true },
  { name: 'auth status', argv: () => ['auth', 'status'], fields: 'name,status' },
];

/** What tells the records of a list apart, to prove none came twice. */
const identity = (record: FlatRecord) => record.id ?? record['data.id'] ?? `${record['student.id'] ?? record.name ?? ''}|${record.product_id ?? ''}`;

describe.each(FLAVORS)('against the $name sandbox', (flavor) => {
  describe.concurrent('reads: the same output as against the default sandbox, in every format', () => {
    const sandbox = flavor.args.length === 0 ? reference : useSandboxProcess([...SEED, ...flavor.args]);
    const runOn = (target: SandboxProcess, argv: string[], format: Format, out?: boolean): Promise<RunResult> => {
      const key = JSON.stringify([target.url, argv, format, format === 'table' ? flavor.userTz : '']);
      let result = outputs.get(key);
      if (!result) {
        const file = out && join(outDir, `${outputs.size}.${format}`); // unique: the map only grows
        const args = [...argv, '-o', format, ...(file ? ['--out', file] : [])];
        result = run(args, { env: { ...target.env, TZ: flavor.userTz } })
          .then(async (done) => (file && done.code === 0 ? { ...done, stdout: await readFile(file, 'utf8') } : done));
        outputs.set(key, result);
      }
      return result;
    };

    describe.each(READS)('$name', (read) => {
      it.each(FORMATS)('-o %s', async (format) => {
        const fields = format === 'table' && !read.raw ? [] : ['--fields', read.fields];
        const [argv, theirArgv] = [await read.argv(sandbox), await read.argv(reference)];
        const mine = await runOn(sandbox, [...argv, ...fields], format, read.out);
        expect(mine.code, mine.stderr).toBe(0);
        const theirs = await runOn(reference, [...theirArgv, ...fields], format, read.out);
        expect(theirs.code, theirs.stderr).toBe(0);

        // Only the host and this variant's own ids in the arguments may differ; a table's padding follows its widest
        // cell; and Laravel's datetime casts (a cancel, a payment) are instants that a table shows on the user's day.
        const masks = [[sandbox.url, reference.url], ...argv.map((arg, i) => [arg, theirArgv[i] as string]).filter(([a, b]) => a !== b)];
        const text = masks.reduce((output, [from, to]) => output.split(from as string).join(to), mine.stdout);
        const tidy = (output: string) => (format === 'table' ? output.replace(/^(CANCELLED|LAST PAYMENT) .*\n/gm, '').replace(/ {2,}/g, '  ') : output);
        expect(tidy(text)).toBe(tidy(theirs.stdout));

        if (format !== 'table' || read.raw) {
          const records = readRecords(format === 'table' ? 'json' : format, mine.stdout, read.one);
          if (read.count) expect(records).toHaveLength(read.count());
          else expect(records.length).toBeGreaterThan(0);
          expect(new Set(records.map(identity)).size).toBe(records.length);
        }
      });
    });
  });

  describe('changes, in every format', () => {
    const sandbox = useSandboxProcess([...SEED, ...flavor.args]);
    const configDir = scratchDir();
    const files = scratchDir();
    const members = (argv: string[], format: Format) =>
      run([...argv, '-o', format], { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir, TZ: flavor.userTz } });
    /** Runs, expects success, and reads the records printed. */
    const records = async (argv: string[], format: Format, one = false) => {
      const result = await members(argv, format);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      return readRecords(format, result.stdout, one);
    };

    describe.each(FORMATS.map((format, index) => ({ format, index })))('-o $format', ({ format, index }) => {
      it('create a student with a CNPJ and a "/" in the e-mail; get by document and e-mail; magic link; delete', async () => {
        const email = `matriz/${format}@example.com`;
        const document = `12.345.678/000${index + 1}-90`;
        expect(await records(['students', 'create', '--first-name', 'Matriz', '--last-name', format, '--email', email, '--document', document, '--fields', 'email,document'], format, true))
          .toEqual([{ email, document }]);
        const [byDocument] = await records(['students', 'get', `doc:${document}`, '--fields', 'id,email'], format, true);
        expect(byDocument).toMatchObject({ email });
        expect(await records(['students', 'get', email, '--fields', 'id'], format, true)).toEqual([{ id: byDocument?.id }]);

        const link = await members(['magic-link', email, '--expire-in', '2h'], format);
        expect(link.code, link.stderr).toBe(0);
        if (format === 'table') expect(link.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/magic\/[\w-]+\n$/);
        else expect(readRecords(format, link.stdout, true)).toEqual([{ expire_in: '7200', url: expect.stringMatching(/\/magic\/[\w-]+$/) }]);

        const deleted = await members(['students', 'delete', `doc:${document}`, '--yes'], format);
        expect(deleted.code, deleted.stderr).toBe(0);
        expect((await members(['students', 'get', email], format)).code).toBe(4);
      });

      it('grant → revoke → undo, and revoke → undo of a seeded subscription: the dates come back exactly; history in the format', async () => {
        const student = truth.students[40 + index] as Student;
        const seeded = student.subscriptions[0] as Subscription;
        const product = truth.products.find((p) => !student.subscriptions.some((s) => s.product_id === p.id)) as Listed;
        const granted = { product_id: product.id, accession_date: '2025-01-15', expiration_date: '2026-01-01' };
        // As the default sandbox sends them: plain dates, whatever form this server gives them in.
        const kept = { product_id: seeded.product_id, accession_date: seeded.accession_date, expiration_date: seeded.expiration_date ?? '' };
        const fields = ['--fields', 'product_id,accession_date,expiration_date'];
        expect(await records(['students', 'grant', student.email, product.id, '--accession', '2025-01-15', '--expiration', '2026-01-01', ...fields], format, true))
          .toEqual([granted]);
        for (const productId of [product.id, seeded.product_id]) {
          const revoked = await members(['students', 'revoke', student.email, productId, '--yes'], format);
          expect(revoked.code, revoked.stderr).toBe(0);
        }

        const history = await records(['history', '--student', student.email, '--fields', 'id,command,product_id,result'], format);
        expect(history.map(({ id: _id, ...change }) => change)).toEqual([
          { command: 'students revoke', product_id: seeded.product_id, result: 'revoked' },
          { command: 'students revoke', product_id: product.id, result: 'revoked' },
          { command: 'students grant', product_id: product.id, result: 'granted' },
        ]);
        expect(await records(['undo', history[0]?.id as string, '--yes', ...fields], format, true)).toEqual([kept]);
        expect(await records(['undo', history[1]?.id as string, '--yes', ...fields], format, true)).toEqual([granted]);
        const held = await records(['students', 'products', student.email, ...fields], format);
        expect(held).toContainEqual(granted);
        expect(held).toContainEqual(kept);
      });

      it('scores set (PUT may answer 201), then get', async () => {
        const student = truth.students[50 + index] as Student;
        expect(await records(['scores', 'set', student.email, String(40 + index), '--fields', 'score'], format, true)).toEqual([{ score: String(40 + index) }]);
        expect(await records(['scores', 'get', student.email, '--fields', 'score'], format, true)).toEqual([{ score: String(40 + index) }]);
      });

      it('auth login (checked against the server), status, token, logout', async () => {
        const profiles = scratchDir();
        const auth = (argv: string[], input?: string) => run([...argv, '-o', format], {
          env: { MEMBERS_CONFIG_DIR: profiles, MEMBERS_DEVELOPER_TOKEN: sandbox.developerToken, MEMBERS_PLATFORM_TOKEN: sandbox.platformToken, TZ: flavor.userTz },
          input,
        });
        const login = await auth(['auth', 'login', '--profile', 'platform', '--base-url', sandbox.url, '--token-stdin'], `${sandbox.apiToken}\n`);
        expect(login.code, login.stderr).toBe(0);
        const status = await auth(['auth', 'status', '--fields', 'name,status']);
        expect(status.code, status.stderr).toBe(0);
        expect(readRecords(format, status.stdout)).toEqual([{ name: 'platform', status: 'ok' }]);
        expect(await auth(['auth', 'token'])).toMatchObject({ code: 0, stdout: `${sandbox.apiToken}\n` });
        expect((await auth(['auth', 'logout', '--profile', 'platform'])).code).toBe(0);
        expect((await auth(['auth', 'token'])).code).toBe(3);
      });

      it('bulk: import a student with a CNPJ, grant by its document and by e-mail, revoke, revoke again', async () => {
        const document = `98.765.432/000${index + 1}-10`;
        const other = truth.students[56 + index] as Student;
        const product = truth.products.find((p) => !other.subscriptions.some((s) => s.product_id === p.id)) as Listed;
        const file = (name: string, lines: string[]) => {
          const path = join(files, `${format}-${name}.csv`);
          writeFileSync(path, `${lines.join('\n')}\n`);
          return path;
        };
        const bulk = (argv: string[]) => records([...argv, '--yes', '--fields', 'line,result'], format);
        const imported = file('import', ['first_name,last_name,email,document', `Empresa,${format},empresa-${format}@example.com,${document}`]);
        expect(await bulk(['students', 'import', imported])).toEqual([{ line: '2', result: 'created' }]);

        const rows = [`doc:${document},${product.title},2025-02-01,2025-12-31`, `${other.email},${product.id},2025-02-01,`];
        expect(await bulk(['students', 'grant', '--file', file('grant', ['student,product_id,accession_date,expiration_date', ...rows])]))
          .toEqual([{ line: '2', result: 'granted' }, { line: '3', result: 'granted' }]);
        const fields = ['--fields', 'product_id,accession_date,expiration_date'];
        expect(await records(['students', 'products', `doc:${document}`, ...fields], format))
          .toEqual([{ product_id: product.id, accession_date: '2025-02-01', expiration_date: '2025-12-31' }]);
        expect(await records(['students', 'products', other.email, ...fields], format))
          .toContainEqual({ product_id: product.id, accession_date: '2025-02-01', expiration_date: '' });

        const revoke = file('revoke', ['student,product_id', `doc:${document},${product.id}`, `${other.email},${product.title}`]);
        expect(await bulk(['students', 'revoke', '--file', revoke])).toEqual([{ line: '2', result: 'revoked' }, { line: '3', result: 'revoked' }]);
        expect(await bulk(['students', 'revoke', '--file', revoke])).toEqual([{ line: '2', result: 'skipped' }, { line: '3', result: 'skipped' }]);
      });
    });
  });
});

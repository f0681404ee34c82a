// `npm run demo`: a short support-desk session through the real binary
// against a throw-away sandbox. Prints every command before running it, with
// the command's own output under it (its stdout and stderr are this run's).
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/members.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'members-demo-'));
// No pager: the demo is a story told in one go, not a page to scroll (and nothing waits for a key).
const env = { ...process.env, MEMBERS_CONFIG_DIR: join(work, 'config'), MEMBERS_PAGER: '' };
for (const key of ['MEMBERS_PROFILE', 'MEMBERS_BASE_URL', 'MEMBERS_TOKEN', 'MEMBERS_DEVELOPER_TOKEN', 'MEMBERS_PLATFORM_TOKEN']) delete env[key];

// Headings in bold only where members itself would colour (contract §1.1): a terminal, and no NO_COLOR.
const bold = process.stdout.isTTY && !process.env.NO_COLOR && process.env.TERM !== 'dumb'
  ? (text) => `\x1b[1m${text}\x1b[22m`
  : (text) => text;

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--login', '--quiet'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  createInterface({ input: sandbox.stdout }).on('line', (line) => {
    if (line.startsWith('base url: ')) resolve(line.slice('base url: '.length));
  });
  sandbox.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});

const quote = (arg) => (/[\s,"'#$&;|<>()]/.test(arg) ? `'${arg.replace(/'/g, `'\\''`)}'` : arg);

/** Shows a command and runs it with this terminal (or pipe) as its stdout and stderr; any other exit code than `exit` stops the demo. */
const step = (title, args, { exit = 0 } = {}) => {
  console.log(`\n${bold(`# ${title}`)}\n$ members ${args.map(quote).join(' ')}`);
  const { status } = spawnSync(process.execPath, [bin, ...args], { env, cwd: work, stdio: ['ignore', 'inherit', 'inherit'] });
  if (status !== exit) throw new Error(`members ${args.join(' ')} exited with ${status}, not ${exit}`);
  if (exit !== 0) console.log(`(exit ${status})`);
};

/** What the demo itself needs to know, read quietly as JSON. */
const read = (args) => JSON.parse(execFileSync(process.execPath, [bin, ...args, '-o', 'json', '--quiet'], { env, cwd: work, encoding: 'utf8' }));

const plain = (text) => text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

try {
  console.log(`Sandbox running at ${url}; profile "sandbox" is active (config in ${env.MEMBERS_CONFIG_DIR}).`);
  step('Who is logged in?', ['auth', 'status']);

  const [student] = read(['students', 'list', '--limit', '1']);
  step('Find a student by part of their name (case and accents do not matter)',
    ['students', 'search', plain(`${student.first_name} ${student.last_name.slice(0, 3)}`)]);
  step('Look them up by CPF, as typed on a ticket', ['students', 'get', student.document]);

  // The product with the shortest title among those the student lacks, named by its title.
  const held = new Set(read(['students', 'products', student.email]).map((s) => s.product_id));
  const products = read(['products', 'list', '--all']);
  const titles = products.map((p) => plain(p.title));
  const product = products
    .filter((p) => !held.has(p.id) && titles.filter((t) => t === plain(p.title)).length === 1)
    .sort((a, b) => a.title.length - b.title.length)[0];
  step('Grant a product by its title, with a reason for the audit trail',
    ['students', 'grant', student.email, plain(product.title), '--reason', 'ticket #4812']);
  step('Grant it again: access is already on, so nothing is sent (exit 0)', ['students', 'grant', student.email, product.title]);
  // A subscription the student has without access, if any: a grant says so instead of "already has access".
  const lapsed = read(['students', 'products', student.email]).find((s) => [0, '0', false].includes(s.active) && products.some((p) => p.id === s.product_id));
  if (lapsed) {
    const title = plain(products.find((p) => p.id === lapsed.product_id).title);
    step('A subscription without access: grant says so and how to fix it, and sends nothing',
      ['students', 'grant', student.email, title], { exit: 5 });
    step('--renew applies the fix: revoked, then granted again (one audited, undoable change); its status becomes the grant\'s, so --include-status-changes says so',
      ['students', 'grant', student.email, title, '--renew', '--include-status-changes', '--reason', 'ticket #4813']);
  }
  step('Everything about the student: subscriptions with access and why, score, courses, history',
    ['students', 'show', student.email]);

  step('What this machine changed for that student (any key finds it)', ['history', '--student', student.document]);
  const change = read(['history', '--student', student.email]).find((record) => record.action === 'grant');
  step(`Undo the grant of "${product.title}" (--yes: this demo has no terminal to ask on)`, ['undo', change.id, '--yes', '--reason', 'granted by mistake']);
  step(`The student no longer has "${product.title}"`, ['students', 'products', student.email]);

  step('Generate a magic login link valid for 2 hours', ['magic-link', student.email, '--expire-in', '2h']);
  step('Who kept access after cancelling or being refunded?',
    ['subscriptions', 'list', '--access', 'active', '--status', 'canceled,refunded', '--fields', 'student.email,product.title,status']);
  step('Export the engaged-courses report to CSV (atomically, mode 0600)',
    ['report', 'engaged-courses', '--top', '3', '-o', 'csv', '--out', 'engaged-courses.csv']);
  const csv = readFileSync(join(work, 'engaged-courses.csv'), 'utf8').split('\n');
  console.log(`engaged-courses.csv: ${csv.length - 2} rows; first lines:\n${csv.slice(0, 3).join('\n')}`);
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((resolve) => sandbox.once('exit', resolve));
  rmSync(work, { recursive: true, force: true });
  console.log('\nSandbox stopped; the demo left nothing behind.');
}

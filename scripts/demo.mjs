// `npm run demo`: a short support-desk session through the real binary
// against a throw-away sandbox. Prints every command before running it.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/members.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'members-demo-'));
const env = { ...process.env, MEMBERS_CONFIG_DIR: join(work, 'config') };
for (const key of ['MEMBERS_PROFILE', 'MEMBERS_BASE_URL', 'MEMBERS_TOKEN', 'MEMBERS_DEVELOPER_TOKEN', 'MEMBERS_PLATFORM_TOKEN']) delete env[key];

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--login', '--quiet'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  createInterface({ input: sandbox.stdout }).on('line', (line) => {
    if (line.startsWith('base url: ')) resolve(line.slice('base url: '.length));
  });
  sandbox.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});

const step = (title, args, { capture = false } = {}) => {
  console.log(`\n\x1b[1m# ${title}\x1b[0m\n$ members ${args.map((a) => (/[\s,]/.test(a) ? `'${a}'` : a)).join(' ')}`);
  const out = execFileSync(process.execPath, [bin, ...args], { env, cwd: work, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (!capture) process.stdout.write(out);
  return out;
};

try {
  console.log(`Sandbox running at ${url}; profile "sandbox" is active (config in ${env.MEMBERS_CONFIG_DIR}).`);
  step('Who is logged in?', ['auth', 'status']);
  const [student] = JSON.parse(step('Pick a student (json, for the demo script)', ['students', 'list', '--limit', '1', '-o', 'json'], { capture: true }));
  step('Look the student up by e-mail', ['students', 'get', student.email]);
  const products = JSON.parse(step('Pick a product they do not have yet', ['products', 'list', '--all', '-o', 'json'], { capture: true }));
  const held = new Set((student.subscriptions ?? []).map((s) => s.product_id));
  const subscriptions = JSON.parse(execFileSync(process.execPath, [bin, 'students', 'products', student.email, '-o', 'json'], { env, encoding: 'utf8' }));
  for (const s of subscriptions) held.add(s.product_id);
  const product = products.find((p) => !held.has(p.id)) ?? products[0];
  step('Grant it, with a reason for the audit trail', ['students', 'grant', student.email, product.id, '--reason', 'ticket #4812']);
  step('Grant it again: nothing is sent, exit code 0', ['students', 'grant', student.email, product.id]);
  step('Generate a magic login link valid for 2 hours', ['magic-link', student.email, '--expire-in', '2h']);
  step('Who kept access after cancelling or being refunded?', ['subscriptions', 'list', '--access', 'active', '--status', 'canceled,refunded', '--fields', 'student.email,product.title,status']);
  step('Export the engaged-courses report to CSV (atomically, mode 0600)', ['report', 'engaged-courses', '--top', '3', '-o', 'csv', '--out', 'engaged-courses.csv']);
  const csv = readFileSync(join(work, 'engaged-courses.csv'), 'utf8').split('\n');
  console.log(`engaged-courses.csv: ${csv.length - 2} rows; first lines:\n${csv.slice(0, 3).join('\n')}`);
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((resolve) => sandbox.once('exit', resolve));
  rmSync(work, { recursive: true, force: true });
  console.log('\nSandbox stopped; the demo left nothing behind.');
}

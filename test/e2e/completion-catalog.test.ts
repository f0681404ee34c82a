/**
 * Product and course ids with their titles on Tab, in the real shells: a
 * run that reads a whole list (products list, courses list --all, a grant by
 * title) remembers it per API; completion reads it offline, for the API of
 * the profile the line names.
 */
import { readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashComplete, fakeMembersDir, fishComplete, hasShell, zshComplete } from '../unit/completion/shells.js';
import { bashTab, hasBashCompletion } from './bash-prompt.js';
import { BIN, HAS_SCRIPT, run, sandboxGet, useSandboxProcess, tempDir } from './harness.js';

const script = (file: string) => fileURLToPath(new URL(`../../completions/${file}`, import.meta.url));

let configDir: string;
let bin: ReturnType<typeof fakeMembersDir>;
let env: NodeJS.ProcessEnv;
let products: Array<{ id: string; title: string }>;
let courses: Array<{ id: string; title: string }>;

/** A run with the profiles of this file's config (no MEMBERS_BASE_URL: the profile decides). */
const members = (args: string[]) => run(args, { env: { MEMBERS_CONFIG_DIR: configDir } });

const sandbox = useSandboxProcess(['--students', '5']);

beforeAll(async () => {
  configDir = tempDir('members-catalog-e2e-');
  // Two profiles: the sandbox (active), and another API nothing was read from.
  for (const [profile, url] of [['sandbox', sandbox.url], ['elsewhere', 'https://elsewhere.example.com']] as const) {
    const login = await run(['auth', 'login', '--profile', profile, '--base-url', url, '--no-verify'], {
      env: { MEMBERS_CONFIG_DIR: configDir, MEMBERS_TOKEN: sandbox.apiToken },
    });
    expect(login.code, login.stderr).toBe(0);
  }
  products = JSON.parse((await run(['products', 'list', '--all', '-o', 'json'], { env: sandbox.env })).stdout) as typeof products;
  courses = JSON.parse((await run(['courses', 'list', '--all', '-o', 'json'], { env: sandbox.env })).stdout) as typeof courses;
  bin = fakeMembersDir(`exec "${process.execPath}" "${BIN}" "$@"`);
  env = { PATH: `${bin.dir}:${process.env.PATH}`, MEMBERS_CONFIG_DIR: configDir };
});

afterAll(async () => {
  await sandbox?.stop();
  rmSync(configDir, { recursive: true, force: true });
  bin?.cleanup();
});

const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);
/** Every option that takes a product (QA found only the first completed). */
const PRODUCT_OPTIONS = [
  'members subscriptions list --product',
  'members subscriptions extend --product',
  'members courses accesses some-course --never --product',
  'members sync --product',
];
const catalogFile = () => join(configDir, 'catalog.json');

describe('what fills the catalog', () => {
  it('a list that saw only some of the pages does not; the whole list does; naming a product by its title does too', async () => {
    rmSync(catalogFile(), { force: true });
    const partial = await members(['products', 'list', '--per-page', '2']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(existsSync(catalogFile())).toBe(false);

    const whole = await members(['products', 'list']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(bashComplete(script('members.bash'), ['members', 'students', 'grant', 'ana@example.com', ''], env)).toEqual(ids(products));

    rmSync(catalogFile());
    const byTitle = await members(['subscriptions', 'list', '--product', 'python pro']);
    expect(byTitle.code, byTitle.stderr).toBe(0);
    expect(bashComplete(script('members.bash'), ['members', 'students', 'grant', 'x', ''], env)).toEqual(ids(products));
  });

  it('holds ids and titles only, in a private file', async () => {
    const listed = await members(['courses', 'list', '--all']);
    expect(listed.code, listed.stderr).toBe(0);
    const text = readFileSync(catalogFile(), 'utf8');
    expect(text).not.toContain(sandbox.apiToken);
    expect(text).not.toContain('@');
    expect(JSON.parse(text)).toEqual({ apis: { [sandbox.url]: expect.objectContaining({ courses: courses.map((course) => [course.id, course.title]) }) } });
  });
});

describe('on Tab, offline', () => {
  beforeAll(async () => {
    for (const args of [['products', 'list'], ['courses', 'list', '--all']]) expect((await members(args)).code).toBe(0);
  });

  it('bash: product ids after grant, revoke, products get and --product; course ids after courses get and accesses', async () => {
    const requests = async () => (await sandboxGet<{ total: number }>(sandbox, '/__sandbox/stats')).body.total;
    const before = await requests();
    const complete = (...words: string[]) => bashComplete(script('members.bash'), words, env);
    const python = products.find((product) => product.title === 'Python Pro')?.id ?? '';
    expect(complete('members', 'students', 'grant', 'ana@example.com', '')).toEqual(ids(products));
    expect(complete('members', 'students', 'revoke', 'ana@example.com', python.slice(0, 8))).toEqual([python]);
    expect(complete('members', 'products', 'get', '')).toEqual(ids(products));
    for (const line of PRODUCT_OPTIONS) expect(complete(...line.split(' '), ''), line).toEqual(ids(products));
    expect(complete('members', 'courses', 'accesses', '')).toEqual(ids(courses));
    // The student comes first: no product ids there.
    expect(complete('members', 'students', 'grant', '')).toEqual([]);
    // Offline: the sandbox saw no request (its stats do not count themselves).
    expect(await requests()).toBe(before);
  });

  it('follows -p: another profile\'s API offers nothing until a run has read its lists', () => {
    expect(bashComplete(script('members.bash'), ['members', '-p', 'elsewhere', 'products', 'get', ''], env)).toEqual([]);
    expect(bashComplete(script('members.bash'), ['members', '-qp', 'sandbox', 'products', 'get', ''], { ...env, MEMBERS_PROFILE: 'elsewhere' })).toEqual(ids(products));
  });

  /*
   * At a real prompt: readline splits `ana@example.com`, `ref:ABC` and `--opt=value` at COMP_WORDBREAKS (`@`
   * only without bash-completion, which takes it out) and replaces only the text after the last break.
   */
  describe.runIf(HAS_SCRIPT).each([
    ['without bash-completion', false],
    ['after bash-completion', true],
  ])('bash at a prompt, %s', (_name, withBashCompletion) => {
    const tab = (line: string) => bashTab(script('members.bash'), line, { env, withBashCompletion });
    const python = () => products.find((product) => product.title === 'Python Pro') as { id: string; title: string };
    // Each title beside its id, as zsh shows them; titles with spaces stay whole.
    const described = () => products.map((product) => `${product.id}  -- ${product.title}`);

    it.skipIf(withBashCompletion && !hasBashCompletion())('after an e-mail, Tab Tab lists the products with their titles; Tab inserts the one a prefix names', async () => {
      const listing = await tab('members students grant hlopes1979@bol.com.br ');
      expect(listing.listed.map((entry) => entry.trimEnd())).toEqual(described());
      expect(listing.screen).toContain(`${python().id}  -- Python Pro`);
      const one = await tab(`members students grant hlopes1979@bol.com.br ${python().id.slice(0, 13)}`);
      expect(one.inserted).toBe(`members students grant hlopes1979@bol.com.br ${python().id} `);
    });

    it.skipIf(withBashCompletion && !hasBashCompletion())('after ref:ABC and doc:…, the same', async () => {
      expect((await tab('members students revoke ref:ABC ')).listed.map((entry) => entry.trimEnd())).toEqual(described());
      const one = await tab(`members students grant doc:123.456.789-09 ${python().id.slice(0, 13)}`);
      expect(one.inserted).toBe(`members students grant doc:123.456.789-09 ${python().id} `);
    });

    it.skipIf(withBashCompletion && !hasBashCompletion())('after --opt=value (a URL with its `:`), and in one: --product=ID, --fields=a,b', async () => {
      expect((await tab(`members --base-url=${sandbox.url} products get `)).listed.map((entry) => entry.trimEnd())).toEqual(described());
      expect((await tab(`members subscriptions list --product=${python().id.slice(0, 13)}`)).inserted)
        .toBe(`members subscriptions list --product=${python().id} `);
      expect((await tab('members --profile=sandbox students list --fields=id,em')).inserted).toBe('members --profile=sandbox students list --fields=id,email');
    });

    it.skipIf(withBashCompletion && !hasBashCompletion())('the start of a title (case ignored) where no id begins so: the title, quoted', async () => {
      expect((await tab('members students grant hlopes1979@bol.com.br py')).inserted).toBe("members students grant hlopes1979@bol.com.br 'Python Pro' ");
      expect((await tab("members sync --product 'exCEL")).inserted).toBe("members sync --product 'Excel Avançado — Acesso Vitalício' ");
      expect((await tab('members products get PYTH')).inserted).toBe("members products get 'Python Pro' ");
      // A word no title begins with gets nothing.
      const none = await tab('members products get xyz');
      expect([none.inserted, none.listed]).toEqual(['members products get xyz', []]);
    });
  });

  it.runIf(hasShell('zsh'))('zsh', () => {
    const complete = (line: string) => zshComplete(script('_members'), line, env);
    expect(complete('members students grant ana@example.com ').sort()).toEqual(ids(products).sort());
    expect(complete('members courses get ').sort()).toEqual(ids(courses).sort());
    for (const line of PRODUCT_OPTIONS) expect(complete(`${line} `).sort(), line).toEqual(ids(products).sort());
    expect(complete('members --profile elsewhere courses get ')).toEqual([]);
  });

  it.runIf(hasShell('fish'))('fish, with each title beside its id', () => {
    const complete = (line: string) => fishComplete(script('members.fish'), line, env, { descriptions: true });
    expect(complete('members students grant ana@example.com ').sort()).toEqual(products.map((product) => `${product.id}\t${product.title}`).sort());
    expect(complete('members courses accesses ').sort()).toEqual(courses.map((course) => `${course.id}\t${course.title}`).sort());
    for (const line of PRODUCT_OPTIONS) expect(complete(`${line} `).sort(), line).toEqual(products.map((product) => `${product.id}\t${product.title}`).sort());
    expect(complete('members -p elsewhere products get ')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { main } from '../../../src/main.js';
import { buildProgram } from '../../../src/program.js';
import { fakeIo } from '../../helpers/fake-io.js';
import { grantOperation, importOperation, revokeOperation } from '../../../src/domain/bulk/operations.js';
import { ExitCode } from '../../../src/lib/errors.js';

async function members(args: string[]) {
  const fake = fakeIo({ columns: 100 });
  const code = await main(args, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('members help', () => {
  it.each([
    ['environment', 'MEMBERS_CONFIG_DIR'],
    ['exit-codes', '141  stdout was closed by its reader'],
    ['formatting', '--fields id,email,product.title'],
    ['bulk', '  members students grant --file grants.csv --yes --reason "nightly sync"'],
    ['undo', '  members undo m7u0k1zq-3f9c2e4d7a01 --reason "granted by mistake"'],
  ])('help %s prints the topic on stdout, exit 0', async (topic, line) => {
    const { code, stdout, stderr } = await members(['help', topic]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(line);
  });

  it('help exit-codes explains every exit code members uses (sync\'s 8 and 9 too)', async () => {
    const { stdout } = await members(['help', 'exit-codes']);
    const listed = [...stdout.matchAll(/^ {2}(\d+) {2,}/gm)].map((match) => Number(match[1]));
    expect(listed).toEqual(Object.values(ExitCode));
    expect(stdout).toContain('  8    sync --check: the platform differs from the file');
    expect(stdout).toContain('  9    sync: a product would lose more holders than --max-revoke');
  });

  it('walks nested commands: help students grant is the help of grant', async () => {
    const { code, stdout } = await members(['help', 'students', 'grant']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('Usage: members students grant [options] <student> <product>... | --file <file>');
  });

  it("a command's help shows its own options and commands first, then the global options in a few lines", async () => {
    const { stdout } = await members(['students', '--help']);
    const sections = stdout.split('\n').filter((line) => /^[A-Z][A-Za-z ]+(\(.*\))?:$/.test(line));
    expect(sections).toEqual(['Options:', 'Commands:', 'Examples:', 'Global options (valid on every command; members --help describes them):']);
    const global = stdout.slice(stdout.indexOf('Global options'));
    expect(global.trimEnd().split('\n').length).toBeLessThanOrEqual(5);
    for (const flag of ['-p, --profile <name>', '--base-url <url>', '--timeout <duration>', '-y, --yes', '--out <file>']) expect(global).toContain(flag);
    expect(stdout).not.toContain('per-request timeout');
    const grant = (await members(['students', 'grant', '--help'])).stdout;
    expect(grant.indexOf('--renew')).toBeLessThan(grant.indexOf('Global options'));
  });

  it('every command\'s help has a blank line before the global options, with or without notes of its own', async () => {
    const { program } = buildProgram({ io: fakeIo().io });
    const paths: string[][] = [];
    const walk = (command: Command, path: string[]) => {
      for (const sub of command.commands) {
        paths.push([...path, sub.name()]);
        walk(sub, [...path, sub.name()]);
      }
    };
    walk(program, []);
    expect(paths).toContainEqual(['version']);
    for (const path of paths) {
      const { stdout } = await members([...path, '--help']);
      expect(stdout, path.join(' ')).toMatch(/\S\n\nGlobal options \(/);
    }
  });

  it("the root's help keeps describing each global option", async () => {
    const { stdout } = await members(['--help']);
    expect(stdout).toContain('per-request timeout');
    expect(stdout).not.toContain('Global options (valid on every command');
  });

  it('an unknown topic is exit 2 naming the topics', async () => {
    const { code, stdout, stderr } = await members(['help', 'nope']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: no command or help topic "nope"; see `members --help` (topics: environment, exit-codes, formatting, bulk, each, student-keys, undo)\n');
  });

  it('help bulk gives the columns each bulk form reads', async () => {
    const { stdout } = await members(['help', 'bulk']);
    for (const [form, { columns }] of [['grant', grantOperation], ['revoke', revokeOperation], ['import', importOperation]] as const) {
      expect(stdout).toContain(`\n  ${form.padEnd(8)} ${[columns.required.join(','), ...columns.optional.map((c) => `[,${c}]`)].join('')}\n`);
    }
  });

  it('help undo is the topic, which points at undo --help for the command itself', async () => {
    const topic = await members(['help', 'undo']);
    expect(topic.stdout).toContain('\nWhat undo does:\n');
    expect(topic.stdout).toMatch(/The flags of the command: members undo --help\.\n$/);
    const command = await members(['undo', '--help']);
    expect(command.stdout.split('\n')[0]).toBe('Usage: members undo [options] <audit_id> | --last [--student <student>]');
  });

  it('the root help lists every topic', async () => {
    const { stdout } = await members(['--help']);
    expect(stdout).toContain('  members help bulk          grant, revoke and import from a CSV file\n');
    expect(stdout).toContain('  members help student-keys  how a STUDENT is named: id, e-mail, CPF, phone, doc:, ref:\n');
    expect(stdout).toContain('  members help undo          find a change in the audit log and reverse it\n');
  });

  it('help student-keys gives the rule that tells a phone from a CPF or an id', async () => {
    const { code, stdout } = await members(['help', 'student-keys']);
    expect(code).toBe(0);
    expect(stdout).toContain('  (61) 93986-2924              a space or a dash\n');
    expect(stdout).toContain('  61939862924                  11 digits: a CPF (whatever its check digits: one may be\n');
    expect(stdout).toContain('Several students with the number: exit 2, listed; none: exit 4.');
  });

  it('group helps have examples', async () => {
    for (const group of ['students', 'products', 'subscriptions', 'courses', 'scores', 'auth', 'report']) {
      expect((await members([group, '--help'])).stdout).toContain('\nExamples:\n  members ');
    }
  });
});

import type { Command } from 'commander';
import { examples, type Runner } from '../../program.js';
import { addListOptions } from '../list-options.js';
import type { CreateOptions, ListOptions } from './actions.js';

/** The STUDENT argument of every command (contract §5). */
export const STUDENT_ARGUMENT = 'an id, an e-mail, doc:DOCUMENT or ref:REFERENCE';
export const REASON_OPTION = ['--reason <text>', 'why you make this change (kept in the local audit log)'] as const;

export function registerStudents(program: Command, runner: Runner): void {
  const students = program.command('students').description('List, look up, create and delete students; grant and revoke their products');

  addListOptions(students.command('list')
    .description('List students, one page at a time (--all for every page)')
    .option('--with-subscriptions', "include each student's subscriptions"), { limit: true })
    .addHelpText('after', examples(
      'members students list',
      'members students list --all -o csv --out students.csv',
      'members students list --with-subscriptions --limit 50 -o ndjson',
    ))
    .action(async (opts: ListOptions, cmd: Command) => {
      const { list } = await import('./actions.js');
      await list(runner.session(cmd), opts);
    });

  students.command('get')
    .description('Show one student and its subscriptions')
    .argument('<student>', STUDENT_ARGUMENT)
    .addHelpText('after', examples(
      'members students get maria@example.com',
      'members students get doc:123.456.789-09 -o json',
      'members students get ref:crm-8812 --fields id,email,subscriptions',
    ))
    .action(async (student: string, _opts: unknown, cmd: Command) => {
      const { get } = await import('./actions.js');
      await get(runner.session(cmd), student);
    });

  students.command('create')
    .description('Create a student')
    .requiredOption('--first-name <name>', 'first name')
    .requiredOption('--last-name <name>', 'last name')
    .requiredOption('--email <address>', 'e-mail address')
    .option('--phone <phone>', 'phone number')
    .option('--birth <date>', 'date of birth, YYYY-MM-DD')
    .option('--document <document>', 'document number')
    .option('--reference-id <id>', 'id of the student in another system')
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members students create --first-name Maria --last-name Silva --email maria@example.com',
      'members students create --first-name João --last-name Souza --email joao@example.com --birth 1990-04-12 --document 123.456.789-09 -o json',
    ))
    .action(async (opts: CreateOptions, cmd: Command) => {
      const { create } = await import('./actions.js');
      await create(runner.session(cmd), opts);
    });

  students.command('delete')
    .description('Delete a student (asks first; --yes when not on a terminal)')
    .argument('<student>', STUDENT_ARGUMENT)
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members students delete maria@example.com',
      'members students delete 9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f --yes --reason "GDPR request #311"',
    ))
    .action(async (student: string, opts: { reason?: string }, cmd: Command) => {
      const { remove } = await import('./actions.js');
      await remove(runner.session(cmd), student, opts);
    });

  students.command('products')
    .description("List a student's subscriptions (products, status, access, dates)")
    .argument('<student>', STUDENT_ARGUMENT)
    .addHelpText('after', examples(
      'members students products maria@example.com',
      'members students products doc:123.456.789-09 -o csv',
    ))
    .action(async (student: string, _opts: unknown, cmd: Command) => {
      const { products } = await import('./actions.js');
      await products(runner.session(cmd), student);
    });

  students.command('grant')
    .description('Give a student a product; nothing is sent if the student already has it')
    .argument('<student>', STUDENT_ARGUMENT)
    .argument('<product_id>', 'id of the product (see `members products list`)')
    .option('--accession <date>', 'accession date, YYYY-MM-DD (default: today)')
    .option('--expiration <date>', 'expiration date, YYYY-MM-DD')
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members students grant maria@example.com 5f1c7a2e-0b7d-4d38-9a51-2c3e4f5a6b7c',
      'members students grant ref:crm-8812 5f1c7a2e-0b7d-4d38-9a51-2c3e4f5a6b7c --expiration 2025-12-31 --reason "ticket 4411"',
    ))
    .action(async (student: string, productId: string, opts: { accession?: string; expiration?: string; reason?: string }, cmd: Command) => {
      const { grant } = await import('./actions.js');
      await grant(runner.session(cmd), student, productId, opts);
    });

  students.command('revoke')
    .description('Take a product away from a student (asks first; --yes when not on a terminal)')
    .argument('<student>', STUDENT_ARGUMENT)
    .argument('<product_id>', 'id of the product')
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members students revoke maria@example.com 5f1c7a2e-0b7d-4d38-9a51-2c3e4f5a6b7c',
      'members students revoke doc:123.456.789-09 5f1c7a2e-0b7d-4d38-9a51-2c3e4f5a6b7c --yes --reason "refund #771"',
    ))
    .action(async (student: string, productId: string, opts: { reason?: string }, cmd: Command) => {
      const { revoke } = await import('./actions.js');
      await revoke(runner.session(cmd), student, productId, opts);
    });
}

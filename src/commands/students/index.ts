import type { Command } from 'commander';
import { examples, PRODUCT_ARGUMENT, REASON_OPTION, STUDENT_ARGUMENT, printsRecords, lazyAction, readsSeveralProfiles, registration } from '../shared/command-kit.js';
import { addListOptions } from '../shared/list-flags.js';
import { WAIT_OPTION } from '../shared/lease.js';
import { addBulkOptions, chooseForm, type BulkFlags } from '../shared/bulk/flags.js';

type BulkCommandFlags = BulkFlags & { reason?: string };
type GrantFlags = BulkCommandFlags & { accession?: string; expiration?: string; renew?: boolean; includeStatusChanges?: boolean };

export const registerStudents = registration('Everyday:', (program, runner) => {
  const students = program.command('students').description('List, look up, create and delete students; grant and revoke their products')
    .addHelpText('after', examples(
      'members students get 070.692.055-46',
      'members students grant maria@example.com "Python Pro"',
      'members students revoke --file refunds.csv --yes',
    ));

  addListOptions(printsRecords(students.command('list'), 'Student')
    .description('List students, one page at a time (--all for every page)')
    .option('--with-subscriptions', "include each student's subscriptions"), { limit: true })
    .addHelpText('after', examples(
      'members students list',
      'members students list --all -o csv --out students.csv',
      'members students list --with-subscriptions --limit 50 -o ndjson',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'list'));

  readsSeveralProfiles(printsRecords(students.command('search'), 'Student'))
    .description('Find students by a name, e-mail, phone, document or reference fragment (reads the whole student list)')
    .argument('<text>', 'part of a name, an e-mail, a phone, a document or a reference; case and accents do not matter')
    .addHelpText('after', examples(
      'members students search "joão sil"',
      'members students search "(61) 95591-2284"   # a phone: the table shows its PHONE column',
      'members students search CRM-0004411   # a reference',
      'members students search @empresa.com.br -o csv',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'search'));

  readsSeveralProfiles(students.command('show'))
    .description('Everything about one student: subscriptions with access and why, score, course progress, and the changes made from this machine')
    .addHelpText('after', `
Course progress costs one request per course (the API has course access lists,
not a per-student view): 3 requests + 1 per course, 4 at a time; +1 for product
titles when this machine's history names products.`)
    .argument('<student>', STUDENT_ARGUMENT)
    .addHelpText('after', examples(
      'members students show maria@example.com',
      'members students show 070.692.055-46 -o json',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'show'));

  readsSeveralProfiles(printsRecords(students.command('get'), 'Student'))
    .description('Show one student and its subscriptions')
    .argument('<student>', STUDENT_ARGUMENT)
    .addHelpText('after', examples(
      'members students get maria@example.com',
      'members students get doc:123.456.789-09 -o json',
      'members students get ref:crm-8812 --fields id,email,subscriptions',
      'members students get maria@example.com --profiles escola-sp,escola-rj   # both schools at once',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'get'));

  printsRecords(students.command('create'), 'Student')
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
    .action(lazyAction(runner, () => import('./actions.js'), 'create'));

  students.command('delete')
    .description('Delete a student (asks first; --yes when not on a terminal)')
    .argument('<student>', STUDENT_ARGUMENT)
    .option(...REASON_OPTION)
    .option('--forget', "then erase the student's personal data from this machine's audit log (LGPD): ids, actions, times and reasons stay")
    .addHelpText('after', examples(
      'members students delete maria@example.com',
      'members students delete 9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f --yes --reason "GDPR request #311"',
      'members students delete maria@example.com --forget --reason "LGPD request 2211"',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'remove'));

  // The API cannot change a student (api-spec §4.1). Commander's own answer, "unknown command … Did you mean
  // create?", is the worst advice: a second account starts without the student's progress and score.
  for (const verb of ['update', 'edit', 'rename']) {
    students.command(verb, { hidden: true })
      .description("The API cannot change a student's e-mail, document or name: says what to do instead (exit 2)")
      .argument('[anything...]')
      .allowUnknownOption()
      .action(async () => {
        const { cannotChangeStudents } = await import('./actions.js');
        cannotChangeStudents(verb);
      });
  }

  printsRecords(students.command('products'), 'Subscription')
    .description("List a student's subscriptions (products, status, access, dates)")
    .argument('<student>', STUDENT_ARGUMENT)
    .addHelpText('after', examples(
      'members students products maria@example.com',
      'members students products doc:123.456.789-09 -o csv',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'products'));

  addBulkOptions(students.command('grant')
    .usage('[options] <student> <product>... | --file <file>')
    .description('Give a student a product (or several), or give the rows of a CSV with --file; nothing is sent when access is already on')
    .argument('[student]', STUDENT_ARGUMENT)
    .argument('[product...]', `${PRODUCT_ARGUMENT}; several: one result line for each`)
    .option('--accession <date>', 'accession date, YYYY-MM-DD (default: today)')
    .option('--expiration <date>', 'expiration date, YYYY-MM-DD')
    .option('--renew', 'when the subscription exists without access (or with another expiration), revoke it and grant it again, keeping its accession date unless --accession is given (without it: exit 5, nothing sent; a terminal asks); with --file, every row whose renew cell is blank')
    .option('--include-status-changes', 'with --renew: also renew a subscription whose status the grant resets (canceled, refunded, inactive → active); without it such a renewal is refused (exit 5; a bulk row is skipped), nothing sent')
    .option(...REASON_OPTION), { file: true })
    .addHelpText('after', examples(
      'members students grant maria@example.com "Python Pro"',
      'members students grant ref:crm-8812 5f1c7a2e-0b7d-4d38-9a51-2c3e4f5a6b7c --expiration 2025-12-31 --reason "ticket 4411"',
      'members students grant 07069205546 "python" --renew --expiration 2027-07-05   # restore lapsed access',
      'members students grant maria@example.com "Python Pro" "Excel Avançado" --expiration 2026-12-31   # a bundle: one line per product',
      'members students grant --file grants.csv --dry-run    # columns: student,product_id[,accession_date][,expiration_date][,renew]; product_id may be a title',
      'members students grant --file grants.csv --yes -o csv --out results.csv',
    ))
    .action(async (student: string | undefined, products: string[], opts: GrantFlags, cmd: Command) => {
      const file = chooseForm('grant', student, products, opts);
      if (file !== undefined) {
        const { bulkGrant } = await import('../shared/bulk/commands.js');
        await bulkGrant(runner.session(cmd), file, opts);
        return;
      }
      if (products.length > 1) {
        const { grantSeveral } = await import('./several.js');
        await grantSeveral(runner.session(cmd), student as string, products, opts);
        return;
      }
      const { grant } = await import('./actions.js');
      await grant(runner.session(cmd), student as string, products[0] as string, opts);
    });

  addBulkOptions(students.command('revoke')
    .usage('[options] <student> <product>... | --file <file>')
    .description('Take a product (or several) away from a student, or the rows of a CSV with --file (asks first; --yes when not on a terminal)')
    .argument('[student]', STUDENT_ARGUMENT)
    .argument('[product...]', `${PRODUCT_ARGUMENT}; several: one question for all, one result line for each`)
    .option(...REASON_OPTION), { file: true })
    .addHelpText('after', examples(
      'members students revoke maria@example.com "Python Pro"',
      'members students revoke doc:123.456.789-09 5f1c7a2e-0b7d-4d38-9a51-2c3e4f5a6b7c --yes --reason "refund #771"',
      'members students revoke maria@example.com "Python Pro" "Excel Avançado" "Yoga" --reason "combo refunded"',
      'members students revoke --file refunds.csv --yes --reason "chargebacks, March"    # columns: student,product_id',
    ))
    .action(async (student: string | undefined, products: string[], opts: BulkCommandFlags, cmd: Command) => {
      const file = chooseForm('revoke', student, products, opts);
      if (file !== undefined) {
        const { bulkRevoke } = await import('../shared/bulk/commands.js');
        await bulkRevoke(runner.session(cmd), file, opts);
        return;
      }
      if (products.length > 1) {
        const { revokeSeveral } = await import('./several.js');
        await revokeSeveral(runner.session(cmd), student as string, products, opts);
        return;
      }
      const { revoke } = await import('./actions.js');
      await revoke(runner.session(cmd), student as string, products[0] as string, opts);
    });

  students.command('transfer')
    .description('Move every product a student holds with access to another student, with the same dates (a mistyped e-mail, a new e-mail)')
    .argument('<from>', `the student who holds the products: ${STUDENT_ARGUMENT}`)
    .argument('<to>', 'the student who gets them')
    .option('--delete-source', 'then delete FROM (asks to type its e-mail; refused while FROM would keep a product TO already holds)')
    .option('--include-status-changes', 'also move a subscription whose status the grant to TO would reset (canceled, refunded, inactive → active); without it such a subscription stays with FROM, listed')
    .option('--dry-run', 'print the plan and change nothing')
    .addOption(WAIT_OPTION())
    .option(...REASON_OPTION)
    .addHelpText('after', `${examples(
      'members students transfer maria@gmial.com maria@gmail.com --dry-run',
      'members students transfer maria@gmial.com maria@gmail.com --delete-source --reason "ticket 4411: typo at checkout"',
      'members undo RUN_ID                        # reverses the whole transfer',
    )}
Each product FROM holds with access is granted to TO with its accession and expiration
dates, then revoked from FROM once TO has it. A product TO already holds, and one FROM
holds without access, stay with FROM (the plan says so); so does one whose status the
grant would reset (canceled with access left → active) unless --include-status-changes.
The new subscriptions get the server's default status. Progress and score stay with FROM: the API has no way to move
them. Two lookups, then one request per change; one audit run (\`members undo RUN_ID\`).
`)
    .action(lazyAction(runner, () => import('./transfer.js'), 'transferStudent'));

  addBulkOptions(students.command('import')
    .description('Create the students of a CSV file; e-mails that exist already are skipped')
    .argument('<file>', 'CSV with the columns first_name,last_name,email[,phone][,birth][,document][,reference_id] (- for stdin)')
    .option(...REASON_OPTION))
    .addHelpText('after', examples(
      'members students import new-students.csv --dry-run',
      'members students import new-students.csv --yes --concurrency 8 -o ndjson',
      'crm-export | members students import - --yes',
    ))
    .action(lazyAction(runner, () => import('../shared/bulk/commands.js'), 'importStudents'));
});

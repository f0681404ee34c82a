import { REASON_OPTION, examples, lazyAction, registration } from '../shared/command-kit.js';
import { WAIT_OPTION } from '../shared/lease.js';

const repeat = (value: string, previous?: string[]) => [...(previous ?? []), value];

export const registerSync = registration('Everyday:', (program, runner) => {
  program.command('sync')
    .description('Make product access match a CSV of who should have it: planned, capped, recorded, undoable')
    .usage('--file <file> [options] | --apply <plan>')
    .option('--file <file>', 'the desired state: one row per student and product that should have access (- for stdin)')
    .option('--product <product>', 'every row is for this product (repeatable): its id, title or start of title; the file then has no product_id column', repeat)
    .option('--add-only', 'grant, restore and change expirations; never revoke')
    .option('--remove-only', 'revoke only; never grant')
    .option('--max-revoke <n|n%>', 'the most revocations per product, or a percentage of its holders (default: 10 % of its holders, at most 50); over it: exit 9, nothing changed')
    .option('--check', 'print the plan and change nothing; exit 8 when anything would change (monitoring)')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--plan-out <plan.json>', 'write the plan to a file and change nothing; apply it later with --apply')
    .option('--apply <plan.json>', 'apply a plan written by --plan-out, each change checked against the state it was planned from')
    .option('--include-status-changes', 'also change expirations where the re-grant resets a status (canceled, refunded → the server\'s default)')
    .option('--ignore-extra-columns', 'leave out the columns of the file that are no sync column (Nome, Valor…), listing them, instead of refusing the file')
    .option('--concurrency <n>', 'changes in flight at once, 1–32 (default 4)')
    .addOption(WAIT_OPTION())
    .option(...REASON_OPTION)
    .addHelpText('after', `${examples(
      'members sync --file access.csv --dry-run                # columns: student,product_id[,accession_date][,expiration_date]',
      'members sync --file buyers.csv --product "Python Pro" --check',
      'members sync --file access.csv --max-revoke 5% --yes --reason "nightly sync"',
      'members sync --file access.csv --plan-out plan.json && members sync --apply plan.json --yes',
      'members sync --file sales.csv --product "Python Pro" --ignore-extra-columns --dry-run   # an export with Nome, Valor…',
      'members sync --file access.csv --yes --quiet --summary sync.json --notify "$SLACK_WEBHOOK" --ping "https://hc-ping.com/$UUID"   # nightly',
      'members undo RUN_ID                                      # reverses a whole sync',
    )}
The file is the desired state: every student and product it names should have access; every
subscription with access to a product in scope (named in the file or by --product) that no row
names is revoked. Nothing outside the products in scope is touched. An empty file, or any invalid
row, is refused (exit 2) before any request: an empty export must never revoke everyone.
A row naming a student who is not on the platform is valid but cannot be applied: the plan lists
it as not-found (with its line), --check counts it as drift (8), and applying sends the other
changes, never that row, and exits 7. Import the student first (members students import).

Plan kinds: grant (no subscription), restore (a subscription without access: revoked and granted
again, keeping its accession date unless the file gives one), change-expiration (the file's
expiration_date differs; an empty cell leaves it alone), revoke, not-found, and rows already in sync.

Exit codes: 0 done (or nothing to do); 2 invalid input, or --yes missing off a terminal; 7 a change
failed, was stale or names a student not on the platform; 8 --check found changes to make (a
notice, not an error); 9 a product would lose more holders than
--max-revoke (or the default cap) allows: nothing was changed. See \`members help exit-codes\`.
`)
    .action(lazyAction(runner, () => import('./actions.js'), 'sync'));
});

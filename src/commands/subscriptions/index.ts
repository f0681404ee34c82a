import { Option } from 'commander';
import { PRODUCT_ARGUMENT, REASON_OPTION, examples, printsRecords, lazyAction, readsSeveralProfiles, registration } from '../shared/command-kit.js';
import { WAIT_OPTION } from '../shared/lease.js';
import { addListOptions } from '../shared/list-flags.js';

export const registerSubscriptions = registration('Everyday:', (program, runner) => {
  const subscriptions = program.command('subscriptions').description('List and inspect subscriptions (a student with a product)')
    .addHelpText('after', examples(
      'members subscriptions list --access active --status canceled,refunded',
      'members subscriptions list --product "Python Pro" -o csv',
    ));

  addListOptions(readsSeveralProfiles(printsRecords(subscriptions.command('list'), 'Subscription')).description('List subscriptions; filters apply over every page'))
    .option('--status <list>', 'keep these subscription statuses: active, inactive, refunded, chargeback, canceled (comma-separated)')
    .addOption(new Option('--access <state>', 'keep subscriptions whose access is released (active) or not (inactive)').choices(['active', 'inactive']))
    .option('--product <product>', 'keep subscriptions to this product: its id, its title or the start of its title (unknown: exit 2)')
    .option('--student <student>', 'keep subscriptions of this student (an id, an e-mail, a CPF, doc:DOCUMENT or ref:REFERENCE)')
    .option('--expiring <duration>', 'keep subscriptions with access that expire from today to today + DURATION (7d, 36h)')
    .option('--expired', 'keep subscriptions whose expiration date has passed (with or without access: add --access)')
    .addHelpText('after', `\nThe filters are applied to every page (they imply --all); matching records\nare printed as the pages arrive. Dates are days of your calendar: an\nexpiration of today still gives access today, so it is --expiring, not --expired.\n${examples(
      'members subscriptions list --access active --status canceled,refunded',
      'members subscriptions list --expiring 7d --product "Python Pro" -o csv',
      'members subscriptions list --expired --access active',
      'members subscriptions list --student maria@example.com -o json',
      'members subscriptions list --product "Python Pro" --access inactive',
      'members subscriptions list --product 4f6d2c1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f -o csv --out subscribers.csv',
    )}`)
    .action(lazyAction(runner, () => import('./actions.js'), 'listSubscriptions'));

  subscriptions.command('extend')
    .description('Extend every subscription of a product with access (or one student\'s): renewed with the same accession and a later expiration')
    .option('--product <product>', `the product (required): ${PRODUCT_ARGUMENT}`)
    .option('--days <n>', 'add N days to each expiration')
    .option('--until <date>', 'make DATE (YYYY-MM-DD) the expiration of each')
    .option('--student <student>', 'only this student\'s subscription (an id, an e-mail, a CPF, doc:DOCUMENT or ref:REFERENCE)')
    .option('--include-status-changes', 'also extend subscriptions whose status the grant resets (canceled, refunded, inactive → active)')
    .option('--dry-run', 'print the plan (each row old → new) and change nothing')
    .addOption(WAIT_OPTION())
    .option(...REASON_OPTION)
    .addHelpText('after', `${examples(
      'members subscriptions extend --product "Python Pro" --days 30 --dry-run',
      'members subscriptions extend --product "Python Pro" --until 2027-03-31 --student maria@example.com',
      'members subscriptions extend --product "Python Pro" --days 15 --yes --reason "platform outage, ticket 812"',
      'members undo RUN_ID                      # reverses the whole extension',
    )}
The API has no update: each subscription is revoked, then granted again with its
accession date and the new expiration, as a renewal. A grant sets the server's
default status, so a subscription whose status is another (canceled, refunded,
inactive) is left out and listed unless --include-status-changes; a new expiration
still in the past is flagged. It reads the student list once (or, with --student,
that student), shows the plan on a terminal and asks (type the number above 20);
off a terminal it needs --yes. One audit run: \`members undo RUN_ID\` reverses it.
`)
    .action(lazyAction(runner, () => import('./extend.js'), 'extendSubscriptions'));

  printsRecords(subscriptions.command('get'), 'Subscription')
    .description('Show one subscription with its student and product')
    .argument('<subscription-id>', 'subscription id')
    .addHelpText('after', examples(
      'members subscriptions get 7c0e9b52-3d41-4a8f-b6e2-0f5d9a1c2e3b',
      'members subscriptions get 7c0e9b52-3d41-4a8f-b6e2-0f5d9a1c2e3b --json',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'getSubscriptionCommand'));
});

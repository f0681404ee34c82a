import { REASON_OPTION, examples, lazyAction, registration } from '../shared/command-kit.js';
import { WAIT_OPTION } from '../shared/lease.js';

export const registerUndo = registration('Everyday:', (program, runner) => {
  program.command('undo')
    .description('Reverse a change recorded in the audit log — a grant, renewal, revoke, scores set or delete — or every change of a run (see `members history`)')
    .usage('[options] <audit_id> | --last [--student <student>]')
    .argument('[audit_id]', 'the id of the change, or of a run (a bulk file, a transfer, an extension, a sync), from `members history`')
    .option('--last', 'the most recent change that can be undone (of the profile and base URL in force; a run as a whole), shown and confirmed first')
    .option('--student <student>', 'with --last: the most recent change to this student, whichever key it was named by (alone, even inside a run)')
    .option(...REASON_OPTION)
    .addOption(WAIT_OPTION())
    .addHelpText('after', `${examples(
      'members history --student maria@example.com',
      'members undo m5k2x1ab-3f9c2e4d',
      'members undo m5k2x1ab-3f9c2e4d --yes --reason "revoked by mistake, ticket 4412"',
      'members undo --last --student maria@example.com',
      'members undo RUN_ID                       # every change of a bulk run, transfer, extension or sync',
      'members undo RUN_ID --yes --wait 15m      # wait for a run that holds a lease on its products',
    )}
When the state changed since the recorded change, nothing is sent (exit 5); in a run,
that change is reported as a conflict and the others are undone (exit 7). A revoke or a
restore reads the subscription again right before it is sent: changed meanwhile, it is
not sent (exit 5; in a run, that change is stale, exit 7).
A run's undo takes a lease on the run's products, as the run did: when another run holds
one, it waits --wait (default 0), then exits 10 naming the holder; nothing is sent.
What each kind of change's undo does, and what undo cannot give back: members help undo.
`)
    .action(lazyAction(runner, () => import('./actions.js'), 'undo'));
});

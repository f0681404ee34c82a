import type { Command } from 'commander';
import { REASON_OPTION, examples, type Runner } from '../../session/command-kit.js';

export function registerUndo(program: Command, runner: Runner): void {
  program.command('undo')
    .description('Reverse a grant, a revoke or a delete recorded in the audit log (see `members history`)')
    .argument('<audit_id>', 'the id of the change, from `members history`')
    .option(...REASON_OPTION)
    .addHelpText('after', `${examples(
      'members history --student maria@example.com',
      'members undo m5k2x1ab-3f9c2e4d',
      'members undo m5k2x1ab-3f9c2e4d --yes --reason "revoked by mistake, ticket 4412"',
    )}
A grant is undone by revoking the subscription, if it is still as it was granted.
A revoke is undone by granting the product again with the recorded accession and
expiration dates, if the student has not got it back since: it is a new subscription,
whose status and access are the server's defaults for a grant.
A delete is undone by creating the student again from the recorded fields: the new
student has a new id, and its products, scores and progress are not restored.
When the state changed since the recorded change, nothing is sent (exit 5).
`)
    .action(async (auditId: string, opts: { reason?: string }, cmd: Command) => {
      const { undo } = await import('./actions.js');
      await undo(runner.session(cmd), auditId, opts);
    });
}

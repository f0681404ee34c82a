import type { Command } from 'commander';
import { REASON_OPTION, examples, type Runner } from '../../session/command-kit.js';

export function registerUndo(program: Command, runner: Runner): void {
  program.command('undo')
    .description('Reverse a change recorded in the audit log: a grant, renewal, revoke, scores set or delete (see `members history`)')
    .argument('<audit_id>', 'the id of the change, from `members history`')
    .option(...REASON_OPTION)
    .addHelpText('after', `${examples(
      'members history --student maria@example.com',
      'members undo m5k2x1ab-3f9c2e4d',
      'members undo m5k2x1ab-3f9c2e4d --yes --reason "revoked by mistake, ticket 4412"',
    )}
When the state changed since the recorded change, nothing is sent (exit 5).
What each kind of change's undo does, and what undo cannot give back: members help undo.
`)
    .action(async (auditId: string, opts: { reason?: string }, cmd: Command) => {
      const { undo } = await import('./actions.js');
      await undo(runner.session(cmd), auditId, opts);
    });
}

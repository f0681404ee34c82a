import { REASON_OPTION, examples, lazyAction, registration } from '../shared/command-kit.js';

export const registerHistory = registration('Reports:', (program, runner) => {
  program.command('history')
    .description('Show the changes recorded (this machine\'s audit log, or the team record: members record), newest first')
    .option('--student <student>', 'only changes to this student, whichever key the change named it by (id, e-mail, CPF, doc:…, ref:…)')
    .option('--run <run_id>', 'the changes of one run (a sync, a bulk file, an undo of a run), which the list shows as one entry')
    .option('--since <date>', 'only changes on or after DATE (YYYY-MM-DD, local time)')
    .option('--limit <n>', 'only the N newest changes')
    .option('--forget <student_id>', 'instead: erase the personal data of this deleted student from the log (LGPD); asks first')
    .option(...REASON_OPTION)
    .addHelpText('after', `${examples(
      'members history',
      'members history --student maria@example.com --since 2025-01-01',
      'members history --student 07069205546     # also the changes made by e-mail, id or ref:',
      'members history --limit 20 -o json',
      'members history --run m5k2x1ab-3f9c2e4d     # the changes of a sync or a bulk file; members undo m5k2x1ab-3f9c2e4d reverses them',
      'members history --forget 7c0e9b52-3d41-4a8f-b6e2-0f5d9a1c2e3b --reason "LGPD request 2211"',
    )}
With --student, the student is looked up once (when the server can be reached) to
learn its other keys. The log is audit.jsonl in the config directory
(MEMBERS_CONFIG_DIR). Undo a grant, a renewal, a revoke, a delete or a scores set
with \`members undo ID\`.
--forget STUDENT_ID rewrites the log (atomically) so that no record keeps the
name, e-mail, phone, birth, document or reference of a student deleted earlier;
ids, actions, times and reasons stay. \`students delete STUDENT --forget\` does
both at once.
`)
    .action(lazyAction(runner, () => import('./actions.js'), 'history'));
});

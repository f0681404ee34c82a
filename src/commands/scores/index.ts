import { REASON_OPTION, STUDENT_ARGUMENT, examples, printsRecords, lazyAction, registration } from '../shared/command-kit.js';
import { FILE_WAIT_OPTION } from '../shared/lease.js';

export const registerScores = registration('Everyday:', (program, runner) => {
  const scores = program.command('scores').description("Read and set a student's community score")
    .addHelpText('after', examples(
      'members scores get maria@example.com',
      'members scores set maria@example.com 120 --reason "moderation #88"',
      'members scores add maria@example.com 15',
    ));

  printsRecords(scores.command('get'), 'Score')
    .description("Show a student's score, posts, comments and replies")
    .argument('<student>', STUDENT_ARGUMENT)
    .addHelpText('after', examples(
      'members scores get maria@example.com',
      'members scores get ref:crm-8812 -o json',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'getScore'));

  printsRecords(scores.command('set'), 'Score')
    .description("Set a student's score (an integer)")
    .argument('[student]', STUDENT_ARGUMENT)
    .argument('[score]', 'the new score, an integer')
    .option('--file <file>', 'set the score of every row of a CSV file or xlsx workbook (- for stdin): a student column (E-mail, CPF, student…) and a score column (score, Pontos…); one run, undone as one')
    .addOption(FILE_WAIT_OPTION())
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members scores set maria@example.com 120',
      'members scores set doc:123.456.789-09 0 --reason "reset after moderation"',
      'members scores set --file pontos.csv --yes --reason "contest"',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'setScore'));

  printsRecords(scores.command('add'), 'Score')
    .description("Add N to a student's score (negative N takes away); the record keeps the score before and after")
    .argument('[student]', STUDENT_ARGUMENT)
    .argument('[points]', 'the points to add, an integer (negative allowed: -- -5)')
    .option('--file <file>', 'add the points of every row of a CSV file or xlsx workbook (- for stdin): a student column and a points column (points, Pontos, score…); one run, undone as one, each row once across a kill and a re-run')
    .addOption(FILE_WAIT_OPTION())
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members scores add maria@example.com 15 --reason "contest winner"',
      'members scores add maria@example.com -- -5',
      'members scores add --file pontos.csv --yes --reason "contest 2026-11"',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'addScore'));
});

import { REASON_OPTION, STUDENT_ARGUMENT, examples, printsRecords, lazyAction, registration } from '../shared/command-kit.js';

export const registerScores = registration('Everyday:', (program, runner) => {
  const scores = program.command('scores').description("Read and set a student's community score")
    .addHelpText('after', examples(
      'members scores get maria@example.com',
      'members scores set maria@example.com 120 --reason "moderation #88"',
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
    .argument('<student>', STUDENT_ARGUMENT)
    .argument('<score>', 'the new score, an integer')
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members scores set maria@example.com 120',
      'members scores set doc:123.456.789-09 0 --reason "reset after moderation"',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'setScore'));
});

import type { Command } from 'commander';
import { REASON_OPTION, STUDENT_ARGUMENT, examples, type Runner, printsRecords } from '../../session/command-kit.js';

export function registerScores(program: Command, runner: Runner): void {
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
    .action(async (student: string, _opts: unknown, cmd: Command) => {
      const { getScore } = await import('./actions.js');
      await getScore(runner.session(cmd), student);
    });

  printsRecords(scores.command('set'), 'Score')
    .description("Set a student's score (an integer)")
    .argument('<student>', STUDENT_ARGUMENT)
    .argument('<score>', 'the new score, an integer')
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'members scores set maria@example.com 120',
      'members scores set doc:123.456.789-09 0 --reason "reset after moderation"',
    ))
    .action(async (student: string, score: string, opts: { reason?: string }, cmd: Command) => {
      const { setScore } = await import('./actions.js');
      await setScore(runner.session(cmd), student, score, opts);
    });
}

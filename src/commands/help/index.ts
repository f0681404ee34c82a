import { UsageError } from '../../lib/errors.js';
import { examples, registration } from '../shared/command-kit.js';
import { HELP_TOPICS } from './topics.js';

/**
 * `members help [COMMAND…|TOPIC]`, in place of commander's own help command:
 * it walks nested commands (`help students grant`) and knows the topics.
 */
export const registerHelp = registration('Setup:', (program) => {
  program.helpCommand(false);
  program.command('help')
    .description('Show help for a command, or a help topic')
    .argument('[command-or-topic...]', `a command (students grant) or a topic: ${Object.keys(HELP_TOPICS).join(', ')}`)
    .action((words: string[]) => {
      const topic = words.length === 1 ? HELP_TOPICS[words[0] as string] : undefined;
      if (topic) {
        // Through commander's configured output, so that it goes where all help goes (tests capture it).
        program.configureOutput().writeOut?.(topic.text);
        return;
      }
      let command = program;
      for (const word of words) {
        const next = command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
        if (!next) {
          throw new UsageError(`no command or help topic "${words.join(' ')}"; see \`members --help\` (topics: ${Object.keys(HELP_TOPICS).join(', ')})`);
        }
        command = next;
      }
      command.outputHelp();
    });
  const width = Math.max(...Object.keys(HELP_TOPICS).map((name) => name.length));
  program.addHelpText('after', `\nHelp topics:\n${Object.entries(HELP_TOPICS)
    .map(([name, { summary }]) => `  members help ${name.padEnd(width)}  ${summary}`).join('\n')}\n${examples(
    'members students get maria@example.com',
    'members students grant 070.692.055-46 "Python Pro" --expiration 2027-07-05',
    'members students grant --file grants.csv --yes -o csv --out results.csv',
    'members report engaged-courses -o csv --out report.csv',
  )}`);
});

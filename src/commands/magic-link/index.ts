import { REASON_OPTION, STUDENT_ARGUMENT, examples, printsRecords, lazyAction, registration } from '../shared/command-kit.js';
import { FILE_WAIT_OPTION } from '../shared/lease.js';

export const registerMagicLink = registration('Everyday:', (program, runner) => {
  printsRecords(program.command('magic-link'), 'MagicLink')
    .description('Create a time-limited link that logs a student in; prints the URL alone')
    .argument('[student]', STUDENT_ARGUMENT)
    .option('--expire-in <duration>', 'life of the link: seconds, or a number with s, m, h or d', '1h')
    .option('--file <file>', 'a link for every row of a CSV file or xlsx workbook (- for stdin), the student found by its header (E-mail, CPF, student…); the results are the rows plus url and expire_in, as members each writes them')
    .addOption(FILE_WAIT_OPTION())
    .option(...REASON_OPTION)
    .addHelpText('after', examples(
      'url=$(members magic-link maria@example.com)',
      'members magic-link doc:123.456.789-09 --expire-in 2h',
      'members magic-link "+55 61 93986-2924"      # a phone: the student list is read, as students search does',
      'members magic-link ref:crm-8812 --expire-in 15m -o json',
      'members magic-link --file turma.csv --expire-in 7d --yes --out links.csv',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'magicLink'));
});

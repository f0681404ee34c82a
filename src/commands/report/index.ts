import { Option } from 'commander';
import { examples, printsRecords, lazyAction, readsSeveralProfiles, registration } from '../shared/command-kit.js';

export const registerReport = registration('Reports:', (program, runner) => {
  const report = program.command('report').description('Partner reports of the platform')
    .addHelpText('after', examples(
      'members report engaged-courses -o csv --out report.csv',
    ));

  readsSeveralProfiles(printsRecords(report.command('engaged-courses'), 'ReportItem'))
    .description('Stream the (deprecated) report of the most engaged courses: one row per student and course')
    .option('--top <n>', 'number of courses in the ranking, 1-50', '10')
    .option('--limit <n>', 'rows per page requested from the server, 2-500', '500')
    .option('--cursor <cursor>', 'start from this next_cursor of an earlier page')
    .option('--max-pages <n>', 'stop after N pages (default: every page)')
    .addOption(new Option('--group-by <what>', 'one row per course: students, finished, mean completion, the course average (a bar each at a terminal)').choices(['course']))
    .option('--chart', 'with --out FILE.xlsx: a sheet per course with a bar chart of it, and the rows per student with data bars')
    .addHelpText('after', `
The report tokens come from MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN,
else from the profile (\`members auth login\`); never from a flag.
${examples(
    'members report engaged-courses --top 5',
    'members report engaged-courses --group-by course',
    'members report engaged-courses --chart --out engagement.xlsx',
    'members report engaged-courses -o csv --out engaged-courses.csv',
    'members report engaged-courses --top 20 --limit 100 --max-pages 1 -o ndjson',
  )}`)
    .action(lazyAction(runner, () => import('./actions.js'), 'engagedCoursesReport'));
});

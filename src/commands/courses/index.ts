import { COURSE_ARGUMENT, PRODUCT_ARGUMENT, examples, printsRecords, lazyAction, readsSeveralProfiles, registration } from '../shared/command-kit.js';
import { addListAndGet } from '../shared/catalog/flags.js';

export const registerCourses = registration('Everyday:', (program, runner) => {
  const courses = program.command('courses').description('List courses, their modules and lessons, and who accessed them')
    .addHelpText('after', examples(
      'members courses list --all',
      'members courses accesses "Python para iniciantes" -o csv',
    ));

  addListAndGet(courses, runner, () => import('./actions.js'), {
    record: 'Course',
    list: {
      description: 'List courses with their counts of modules and lessons',
      examples: [
        'members courses list',
        'members courses list --all -o json > courses.json',
        'members courses list --fields id,title,status -o csv',
      ],
    },
    get: {
      description: 'Show one course, then its modules and lessons as a tree',
      argument: ['<course>', COURSE_ARGUMENT],
      examples: [
        'members courses get 2b7d4e90-1c3a-4f5e-8d6b-9a0c1e2f3a4b',
        'members courses get "programação em python"',
        'members courses get 2b7d4e90-1c3a-4f5e-8d6b-9a0c1e2f3a4b --json | jq \'.modules[].title\'',
      ],
    },
  });

  readsSeveralProfiles(printsRecords(courses.command('accesses'), 'CourseAccess'))
    .description('Who accessed a course: last access, whether and when they finished it; or who holds a product and never opened it')
    .argument('<course>', COURSE_ARGUMENT)
    .option('--finished', 'keep those who finished the course (the certificate list)')
    .option('--not-finished', 'keep those who have not finished it')
    .option('--never', 'instead: the holders of --product (with access) who never opened the course, with names and e-mails')
    .option('--product <product>', `with --never: ${PRODUCT_ARGUMENT}`)
    .addHelpText('after', `${examples(
      'members courses accesses 2b7d4e90-1c3a-4f5e-8d6b-9a0c1e2f3a4b',
      'members courses accesses "Programacao em Python" --finished -o csv',
      'members courses accesses "Programacao em Python" --never --product "Python Pro" -o csv --out welcome.csv',
    )}
--never reads the course's accesses once, then the subscriptions list (every
page): the API lists no holders of one product. A holder never opened the
course when the accesses have no entry for them, or one without a last access.
`)
    .action(lazyAction(runner, () => import('./actions.js'), 'accesses'));
});

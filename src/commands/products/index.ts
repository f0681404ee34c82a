import { examples, lazyAction, PRODUCT_ARGUMENT, registration } from '../shared/command-kit.js';
import { addListAndGet } from '../shared/catalog/flags.js';

export const registerProducts = registration('Everyday:', (program, runner) => {
  const products = program.command('products').description('List products and their subscriber counts')
    .addHelpText('after', examples(
      'members products list',
      'members products get "Python Pro" --json',
    ));

  addListAndGet(products, runner, () => import('./actions.js'), {
    record: 'Product',
    list: {
      description: 'List products, one page at a time (--all for every page)',
      examples: [
        'members products list',
        'members products list --all -o csv --out products.csv',
        'members products list --page 2 --per-page 50 --fields id,title,subscribers.active',
        'members products list --all --all-profiles   # every school stored, a PROFILE column first',
      ],
    },
    get: {
      description: 'Show one product, with its active and inactive subscribers',
      argument: ['<product>', PRODUCT_ARGUMENT],
      examples: [
        'members products get 4f6d2c1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f',
        'members products get "python pro"',
        'members products get 4f6d2c1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f --json | jq .subscribers',
      ],
    },
  });

  // Counts over time (issue 38): the API keeps none, so they are kept here.
  products.commands.find((command) => command.name() === 'list')
    ?.option('--compare <date>', 'each product now against the snapshot kept on or before DATE (YYYY-MM-DD or last-month)');
  products.command('snapshot')
    .description('Keep today\'s subscriber counts of every product, for list --compare (run it daily, from cron)')
    .addHelpText('after', `
The platform's API keeps no history of subscriber counts: a product answers
with today's only. Each snapshot is kept in the profile's change record:
product-counts.jsonl in the config directory, or the team record (members
record use), where every machine of the team sees it.
${examples(
    'members products snapshot -q',
    'members products list --compare last-month',
    'members products list --compare 2026-01-31 -o csv',
  )}`)
    .action(lazyAction(runner, () => import('./actions.js'), 'snapshot'));
});

import type { Command } from 'commander';
import { examples, PRODUCT_ARGUMENT, type Runner, printsRecords } from '../../session/command-kit.js';
import { addListOptions, type ListFlags } from '../../session/list-flags.js';

export function registerProducts(program: Command, runner: Runner): void {
  const products = program.command('products').description('List products and their subscriber counts')
    .addHelpText('after', examples(
      'members products list',
      'members products get "Python Pro" --json',
    ));

  addListOptions(printsRecords(products.command('list'), 'Product').description('List products, one page at a time (--all for every page)'))
    .addHelpText('after', examples(
      'members products list',
      'members products list --all -o csv --out products.csv',
      'members products list --page 2 --per-page 50 --fields id,title,subscribers.active',
    ))
    .action(async (flags: ListFlags, cmd: Command) => {
      const { listProducts } = await import('./actions.js');
      await listProducts(runner.session(cmd), flags);
    });

  printsRecords(products.command('get'), 'Product')
    .description('Show one product, with its active and inactive subscribers')
    .argument('<product>', PRODUCT_ARGUMENT)
    .addHelpText('after', examples(
      'members products get 4f6d2c1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f',
      'members products get "python pro"',
      'members products get 4f6d2c1e-8b7a-4c3d-9e2f-1a2b3c4d5e6f --json | jq .subscribers',
    ))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      const { getProductCommand } = await import('./actions.js');
      await getProductCommand(runner.session(cmd), id);
    });
}

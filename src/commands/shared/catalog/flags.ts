/**
 * `products list|get` and `courses list|get` share one shape: a paged list
 * and one record named by id or title. Loaded with the program (it only
 * declares the commands); their code is commands/shared/catalog/commands.ts, run
 * through each module's `list` and `get` actions.
 */
import type { Command } from 'commander';
import { examples, lazyAction, printsRecords, readsSeveralProfiles, type RecordSchema, type Runner } from '../command-kit.js';
import { addListOptions } from '../list-flags.js';
import type { Session } from '../../../session/session.js';

interface CatalogHelp {
  description: string;
  examples: string[];
}

export interface CatalogCommandsSpec {
  record: RecordSchema;
  list: CatalogHelp;
  /** The argument of `get`: its name and its help. */
  get: CatalogHelp & { argument: [name: string, description: string] };
}

type Action = (session: Session, ...args: never[]) => unknown;

export function addListAndGet(parent: Command, runner: Runner, load: () => Promise<{ list: Action; get: Action }>, spec: CatalogCommandsSpec): void {
  addListOptions(readsSeveralProfiles(printsRecords(parent.command('list'), spec.record)).description(spec.list.description))
    .addHelpText('after', examples(...spec.list.examples))
    .action(lazyAction(runner, load, 'list'));

  printsRecords(parent.command('get'), spec.record)
    .description(spec.get.description)
    .argument(...spec.get.argument)
    .addHelpText('after', examples(...spec.get.examples))
    .action(lazyAction(runner, load, 'get'));
}

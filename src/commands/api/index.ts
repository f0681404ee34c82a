import { Option } from 'commander';
import { examples, lazyAction, registration } from '../shared/command-kit.js';

const collect = (value: string, previous: string[]) => [...previous, value];

export const registerApi = registration('Setup:', (program, runner) => {
  program.command('api')
    .description('Send an authenticated request to the API and print the JSON body')
    .argument('<path>', 'path below the base URL, e.g. /api/v1/products')
    .addOption(new Option('-X, --method <method>', 'HTTP method').choices(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'))
    .option('-f, --field <key=value>', 'add a field: query parameter for GET, JSON body field otherwise (repeatable)', collect, [])
    .option('--input <file>', 'read the JSON request body from FILE, or - for stdin')
    .option('--paginate', 'follow links.next and print the concatenated data')
    .addHelpText('after', examples(
      'members api /api/v1/products',
      'members api /api/v1/students -f per_page=100 --paginate -o ndjson',
      'members api /api/v1/students/ID/scores -X PUT -f score=120',
    ))
    .action(lazyAction(runner, () => import('./actions.js'), 'callApi'));
});

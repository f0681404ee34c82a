import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { Subscription } from '../../../src/api/endpoints/schemas.js';
import { schemaPaths } from '../../../src/commands/shared/field-names.js';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

const agent = new MockAgent();
agent.disableNetConnect();
afterEach(() => agent.assertNoPendingInterceptors());

async function members(argv: string[]) {
  const env = { MEMBERS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'members-fields-')), MEMBERS_BASE_URL: 'https://members.example.com', MEMBERS_TOKEN: 'tok_fields_0123456789' };
  const fake = fakeIo({ env });
  const code = await main(argv, fake.io, { dispatcher: agent });
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('--fields with no list', () => {
  it('names the fields of the command\'s records as dot paths, exit 2, nothing sent', async () => {
    const result = await members(['subscriptions', 'list', '--fields']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('error: --fields needs a comma-separated list of fields of `members subscriptions list`:');
    expect(lines.slice(1).map((line) => line.trim())).toEqual(schemaPaths(Subscription as never));
  });

  it('says how to see the fields of a command that declared none', async () => {
    const result = await members(['auth', 'status', '--fields']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('error: --fields needs a comma-separated list of fields; run `members auth status -o json` to see those `members auth status` prints\n');
  });
});

describe('schemaPaths', () => {
  it('flattens nested objects to dot paths, sees through nullish wrappers, keeps arrays as leaves', () => {
    const paths = schemaPaths(Subscription as never);
    expect(paths).toEqual(expect.arrayContaining(['id', 'status', 'product_id', 'product.id', 'product.title', 'student.email']));
    expect(paths).not.toContain('product');
  });
});

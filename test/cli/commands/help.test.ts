import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

async function members(args: string[]) {
  const fake = fakeIo({ columns: 100 });
  const code = await main(args, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('members help', () => {
  it.each([
    ['environment', 'MEMBERS_CONFIG_DIR'],
    ['exit-codes', '141  stdout was closed by its reader'],
    ['formatting', '--fields id,email,product.title'],
  ])('help %s prints the topic on stdout, exit 0', async (topic, line) => {
    const { code, stdout, stderr } = await members(['help', topic]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(line);
  });

  it('walks nested commands: help students grant is the help of grant', async () => {
    const { code, stdout } = await members(['help', 'students', 'grant']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('Usage: members students grant [options] <student> <product> | --file <file>');
  });

  it('an unknown topic is exit 2 naming the topics', async () => {
    const { code, stdout, stderr } = await members(['help', 'nope']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: no command or help topic "nope"; see `members --help` (topics: environment, exit-codes, formatting)\n');
  });

  it('group helps have examples', async () => {
    for (const group of ['students', 'products', 'subscriptions', 'courses', 'scores', 'auth', 'report']) {
      expect((await members([group, '--help'])).stdout).toContain('\nExamples:\n  members ');
    }
  });
});

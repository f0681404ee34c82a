/**
 * completions/ holds what `members completion SHELL` prints today: this fails
 * as soon as a command, option or value changes without `npm run completions`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

const COMPLETIONS = fileURLToPath(new URL('../../../completions', import.meta.url));
const FILES = { bash: 'members.bash', zsh: '_members', fish: 'members.fish', powershell: 'members.ps1' } as const;

describe('completions/ is up to date', () => {
  for (const [shell, file] of Object.entries(FILES)) {
    it(`${file} is the output of \`members completion ${shell}\``, async () => {
      // No credentials, no network, no config directory needed.
      const configDir = join(mkdtempSync(join(tmpdir(), 'members-completion-')), 'absent');
      try {
        const fake = fakeIo({ env: { MEMBERS_CONFIG_DIR: configDir } });
        expect(await main(['completion', shell], fake.io)).toBe(0);
        expect(fake.stderr()).toBe('');
        expect(existsSync(configDir)).toBe(false);
        const committed = readFileSync(join(COMPLETIONS, file), 'utf8');
        expect(fake.stdout(), `completions/${file} is stale: run \`npm run completions\``).toBe(committed);
      } finally {
        rmSync(join(configDir, '..'), { recursive: true, force: true });
      }
    });
  }

  it('refuses another shell with a usage error', async () => {
    const fake = fakeIo();
    expect(await main(['completion', 'tcsh'], fake.io)).toBe(2);
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toContain("Allowed choices are bash, zsh, fish, powershell.");
  });
});

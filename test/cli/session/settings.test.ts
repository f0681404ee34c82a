/** The Session resolves the settings in force once per run: every part of a command sees the same ones. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { globalOptions } from '../../../src/command-line.js';
import { Session } from '../../../src/session/session.js';
import { fakeIo } from '../../helpers/fake-io.js';

let configDir: string | undefined;
afterEach(() => {
  if (configDir) rmSync(configDir, { recursive: true, force: true });
  configDir = undefined;
});

describe('Session.settings', () => {
  it('is resolved once: later calls get the same settings', async () => {
    configDir = mkdtempSync(join(tmpdir(), 'members-session-'));
    const env = { MEMBERS_CONFIG_DIR: configDir, MEMBERS_BASE_URL: 'https://members.example.com', MEMBERS_TOKEN: 'tok_1' };
    const session = new Session(globalOptions({ timeout: '30s', retries: '3' }, env), { io: fakeIo({ env }).io });
    const [first, again] = await Promise.all([session.settings(), session.settings()]);
    expect(again).toBe(first);
    expect(await session.settings()).toBe(first);
    expect(first).toMatchObject({ baseUrl: 'https://members.example.com', token: 'tok_1' });
  });
});

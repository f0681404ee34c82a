/**
 * A real, private, headless and unlocked Secret Service for the keychain
 * tests: gnome-keyring-daemon on a D-Bus session bus of its own (Debian's
 * gnome-keyring and dbus-daemon; .ci/run installs them). Works as root, with
 * no display, no systemd --user and no PAM.
 *
 * One child, `dbus-run-session -- sh -c SCRIPT`, holds the whole session.
 * SCRIPT waits on its stdin, a pipe from the test process: stop() closes it,
 * and so does the kernel if the test process dies; the bus then ends and
 * gnome-keyring-daemon exits with it, so nothing is left running.
 *
 * Its variables go only to what a test gives them: every other test, and
 * every binary it spawns, keeps running with no keychain.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Whether the Secret Service tests can run here: Linux with gnome-keyring,
 * dbus-run-session and secret-tool (a second client, to check what was
 * stored). In CI (MEMBERS_REQUIRE_KEYRING=1, set by .ci/run, which installs
 * them) a missing one fails instead of skipping.
 */
export function hasSecretService(): boolean {
  const tools = ['gnome-keyring-daemon', 'dbus-run-session', 'dbus-send', 'secret-tool'];
  const missing = process.platform === 'linux'
    ? tools.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0)
    : ['Linux'];
  if (missing.length > 0 && process.env.MEMBERS_REQUIRE_KEYRING === '1') {
    throw new Error(`the keychain tests need ${missing.join(', ')} (MEMBERS_REQUIRE_KEYRING=1): apt-get install gnome-keyring dbus-daemon libsecret-tools`);
  }
  return missing.length === 0;
}

export interface SecretService {
  /** For a client: the bus address (all the library reads), and gnome-keyring's own directories (for secret-tool). */
  env: { DBUS_SESSION_BUS_ADDRESS: string; XDG_RUNTIME_DIR: string; XDG_DATA_HOME: string };
  /** gnome-keyring-daemon's pid (a test may stop it, as a frozen keychain). */
  daemonPid: number;
  /** `secret-tool ARGS…` against this Secret Service: its stdout, or null when it exits non-zero (nothing found). */
  secretTool(...args: string[]): Promise<string | null>;
  /** Locks the default collection, as a screen lock does (no display: an unlock would need a prompt, which is dismissed). */
  lock(): Promise<void>;
  stop(): Promise<void>;
}

// --unlock reads the password on stdin and creates (or unlocks) the "login" keyring, the
// default collection, so no "create a keyring?" prompt is ever needed; --start then makes that
// daemon (found through $GNOME_KEYRING_CONTROL) own org.freedesktop.secrets on the bus.
// Without --start, the first client would D-Bus-activate a second daemon, which finds no
// unlocked keyring and fails trying to show a prompt.
const SCRIPT = `
set -e
printf %s "$MEMBERS_TEST_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets > /dev/null
gnome-keyring-daemon --start --components=secrets > /dev/null
echo "$DBUS_SESSION_BUS_ADDRESS"
read _ignored || true
`;

export async function startSecretService(timeoutMs = 10_000): Promise<SecretService> {
  const dir = await mkdtemp(join(tmpdir(), 'members-keyring-'));
  const runtime = join(dir, 'run');
  const data = join(dir, 'data');
  await mkdir(runtime, { mode: 0o700 });
  await mkdir(data, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, HOME: dir, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: data,
    // Explicit, so that on a developer's desktop --start never reaches the real daemon.
    GNOME_KEYRING_CONTROL: join(runtime, 'keyring'), MEMBERS_TEST_KEYRING_PASSWORD: 'members-test-keyring',
  };
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', SCRIPT], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const stop = async () => {
    child.stdin.end();
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(force);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const address = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no Secret Service within ${timeoutMs} ms`)), timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.trim());
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the Secret Service's session exited (${code})`));
      });
    }).catch((error: Error) => {
      throw new Error(`${error.message}; stderr: ${stderr.trim()}`);
    });
    const clientEnv = { DBUS_SESSION_BUS_ADDRESS: address, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: data };
    const bus = (...args: string[]) => execFileAsync('dbus-send', ['--session', '--print-reply', ...args], { env: { PATH: process.env.PATH, ...clientEnv } });
    // Ready once the name has an owner (NameHasOwner does not activate a second daemon).
    for (const until = Date.now() + timeoutMs; ;) {
      const { stdout } = await bus('--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets');
      if (stdout.includes('boolean true')) break;
      if (Date.now() > until) throw new Error('org.freedesktop.secrets has no owner on the test bus');
      await sleep(10);
    }
    const { stdout: owner } = await bus('--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.GetConnectionUnixProcessID', 'string:org.freedesktop.secrets');
    return {
      env: clientEnv,
      daemonPid: Number(/uint32 (\d+)/.exec(owner)?.[1]),
      secretTool: (...args) => execFileAsync('secret-tool', args, { env: { PATH: process.env.PATH, ...clientEnv } })
        .then(({ stdout }) => stdout, () => null),
      // `secret-tool lock` waits forever without a display: the service's own Lock does not.
      lock: () => bus('--dest=org.freedesktop.secrets', '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service.Lock',
        'array:objpath:/org/freedesktop/secrets/collection/login').then(() => undefined),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

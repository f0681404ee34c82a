/**
 * A real, private PostgreSQL cluster for the tests of the team record
 * (issue 36): Debian's binaries (`postgresql` package, .ci/run installs it),
 * `initdb` and `pg_ctl` on a temporary directory, a free port on 127.0.0.1
 * and the unix socket in that directory, so that nothing of the machine's
 * own PostgreSQL (if any) is touched. PostgreSQL refuses to run as root: as
 * root, the cluster runs as `nobody` (runuser). stop() ends it (immediate
 * mode) and removes the directory; kill() ends it as a crash would, for the
 * tests of a database lost mid-run.
 *
 * Skipped where the binaries are absent, unless MEMBERS_REQUIRE_POSTGRES=1 (CI), which fails instead.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Debian's binaries, newest version first; MEMBERS_POSTGRES_BIN names another directory. */
function binDir(): string | undefined {
  if (process.env.MEMBERS_POSTGRES_BIN) return process.env.MEMBERS_POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find((dir) => existsSync(join(dir, 'pg_ctl')));
}

export function hasPostgres(): boolean {
  const dir = binDir();
  const found = dir !== undefined && ['initdb', 'pg_ctl'].every((tool) => existsSync(join(dir, tool)))
    && (process.getuid?.() !== 0 || spawnSync('sh', ['-c', 'command -v runuser'], { stdio: 'ignore' }).status === 0);
  if (!found && process.env.MEMBERS_REQUIRE_POSTGRES === '1') {
    throw new Error('the team record tests need PostgreSQL (MEMBERS_REQUIRE_POSTGRES=1): apt-get install postgresql');
  }
  return found;
}

export interface Postgres {
  /** `postgres://members@127.0.0.1:PORT/members`: trust authentication, for this cluster only. */
  url: string;
  port: number;
  /** Runs SQL with psql; its output (unaligned, tuples only). */
  sql(text: string): Promise<string>;
  /** Ends the server as a crash does (immediate shutdown); start() brings it back on the same port and data. */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `durable`: fsync on, as a real server runs (the bench: a commit then costs what it costs a team). */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<Postgres> {
  const bin = binDir() as string;
  const dir = await mkdtemp(join(tmpdir(), 'members-pg-'));
  const data = join(dir, 'data');
  const root = process.getuid?.() === 0;
  if (root) await chown(dir, 65534, 65534);
  await chmod(dir, 0o700);
  // As root, every tool runs as nobody, who owns the directory.
  const run = (tool: string, args: string[]) => (root
    ? execFileAsync('runuser', ['-u', 'nobody', '--', join(bin, tool), ...args], { cwd: dir })
    : execFileAsync(join(bin, tool), args, { cwd: dir }));
  await run('initdb', ['-D', data, '-U', 'members', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  // fsync=off is safe here (a kill ends the server, not the machine: the OS still has the pages); synchronous_commit
  // stays on, or a kill would lose commits a test has seen answered.
  const settings = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=${options.durable ? 'on' : 'off'}`;
  const start = async () => void await run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
  await start();
  await run('createdb', ['-h', dir, '-p', String(port), '-U', 'members', 'members']);
  return {
    url: `postgres://members@127.0.0.1:${port}/members`,
    port,
    sql: async (text) => (await run('psql', ['-h', dir, '-p', String(port), '-U', 'members', '-d', 'members', '-At', '-v', 'ON_ERROR_STOP=1', '-c', text])).stdout,
    kill: async () => void await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    stop: async () => {
      await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

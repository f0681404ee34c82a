/**
 * A real, private PostgreSQL cluster for the tests of the team record
 * (issue 36): Debian's binaries (`postgresql` package, .ci/run installs it),
 * `initdb` and `pg_ctl` on a temporary directory, a free port on 127.0.0.1
 * and the unix socket in that directory, so that nothing of the machine's
 * own PostgreSQL (if any) is touched. PostgreSQL refuses to run as root: as
 * root, the cluster runs as `nobody` (runuser). stop() ends it (immediate
 * mode) and removes the directory; kill() ends it as a crash would, for the
 * tests of a database lost mid-run. A cluster started once for many runs
 * (startCluster) gives each file a database of its own (postgresIn).
 *
 * Skipped where the binaries are absent, unless MEMBERS_REQUIRE_POSTGRES=1 (CI), which fails instead.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
  /** A new role (its name) that must give `password` over TCP; every other connection is trusted. */
  passwordRole(password: string): Promise<string>;
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

/** A cluster as the test files see it when a globalSetup started it (vitest `provide`): plain data, no functions. */
export interface Cluster {
  bin: string;
  dir: string;
  port: number;
  /** As root, every tool runs as nobody, who owns the directory. */
  root: boolean;
  /** fsync on, as a real server runs (the bench: a commit then costs what it costs a team). */
  durable: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster of the run, when a globalSetup started one (test/helpers/postgres-setup.ts). */
    postgres: Cluster | undefined;
  }
}

function tools(cluster: Cluster) {
  const data = join(cluster.dir, 'data');
  const run = (tool: string, args: string[]) => (cluster.root
    ? execFileAsync('runuser', ['-u', 'nobody', '--', join(cluster.bin, tool), ...args], { cwd: cluster.dir })
    : execFileAsync(join(cluster.bin, tool), args, { cwd: cluster.dir }));
  // fsync=off is safe here (a kill ends the server, not the machine: the OS still has the pages); synchronous_commit
  // stays on, or a kill would lose commits a test has seen answered.
  const options = `-c listen_addresses=127.0.0.1 -p ${cluster.port} -c unix_socket_directories=${cluster.dir} -c fsync=${cluster.durable ? 'on' : 'off'}`;
  const client = ['-h', cluster.dir, '-p', String(cluster.port), '-U', 'members'];
  return {
    run,
    client,
    start: async () => void await run('pg_ctl', ['-D', data, '-o', options, '-l', join(cluster.dir, 'log'), '-w', 'start']),
    stop: async () => void await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
  };
}

/** A new cluster, running, with its `members` database; `stopCluster` ends it and removes its directory. */
export async function startCluster(options: { durable?: boolean } = {}): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'members-pg-'));
  const root = process.getuid?.() === 0;
  if (root) await chown(dir, 65534, 65534);
  await chmod(dir, 0o700);
  const cluster: Cluster = { bin: binDir() as string, dir, port: await freePort(), root, durable: options.durable === true };
  const { run, client, start } = tools(cluster);
  await run('initdb', ['-D', join(dir, 'data'), '-U', 'members', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  await start();
  await run('createdb', [...client, 'members']);
  return cluster;
}

/**
 * Stops `cluster` once process `pid` is gone, however it ended: a detached
 * shell polls it. Stryker kills its test runner after a mutant's timeout,
 * and does not wait for the globalSetup's teardown at the end.
 */
export function stopClusterAfter(cluster: Cluster, pid: number): void {
  const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  const pgCtl = [...(cluster.root ? ['runuser', '-u', 'nobody', '--'] : []), join(cluster.bin, 'pg_ctl'), '-D', join(cluster.dir, 'data'), '-m', 'immediate', '-w', 'stop'];
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 1; done; ${pgCtl.map(quote).join(' ')} >/dev/null 2>&1; rm -rf ${quote(cluster.dir)}`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

export async function stopCluster(cluster: Cluster): Promise<void> {
  await tools(cluster).stop().catch(() => undefined);
  await rm(cluster.dir, { recursive: true, force: true });
}

/** Database `database` of `cluster`; stop() runs `end`. */
function databaseOf(cluster: Cluster, database: string, end: () => Promise<void>): Postgres {
  const { run, client, start, stop } = tools(cluster);
  const sql = async (text: string) => (await run('psql', [...client, '-d', database, '-At', '-v', 'ON_ERROR_STOP=1', '-c', text])).stdout;
  return {
    url: `postgres://members@127.0.0.1:${cluster.port}/${database}`,
    port: cluster.port,
    sql,
    passwordRole: async (password) => {
      const role = `${database}_pw`;
      await sql(`CREATE ROLE ${role} LOGIN SUPERUSER PASSWORD '${password}'`);
      const hba = join(cluster.dir, 'data', 'pg_hba.conf');
      await writeFile(hba, `host all ${role} 127.0.0.1/32 scram-sha-256\n${await readFile(hba, 'utf8')}`);
      await sql('SELECT pg_reload_conf()');
      return role;
    },
    kill: stop,
    start,
    stop: end,
  };
}

/** A cluster of its own; stop() ends it. `durable`: fsync on. */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<Postgres> {
  const cluster = await startCluster(options);
  return databaseOf(cluster, 'members', () => stopCluster(cluster));
}

let databases = 0;

/**
 * An empty database of its own in `cluster`, one started once for many
 * test runs (the mutation run's globalSetup, test/helpers/postgres-setup.ts:
 * Stryker runs a file once per mutant, and a cluster takes seconds to start);
 * stop() drops the database and leaves the cluster running. kill() and
 * start() act on the whole cluster.
 */
export async function postgresIn(cluster: Cluster): Promise<Postgres> {
  const database = `members_${process.pid}_${++databases}`;
  const admin = databaseOf(cluster, 'members', async () => undefined);
  await admin.sql(`CREATE DATABASE ${database}`);
  return databaseOf(cluster, database, async () => void await admin.sql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
}

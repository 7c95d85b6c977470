import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

// A PostgreSQL primary and a hot standby fed by streaming replication, both on loopback, made for one test file:
// `initdb` a fresh primary in a temp dir, start it with `pg_ctl`, then `pg_basebackup -R` from it into a second dir and
// start that as the standby. The machine's own PostgreSQL (127.0.0.1:5432) is left alone. PostgreSQL refuses to run as
// root: as root, every command runs as the `postgres` user (runuser), in dirs it owns.

const run = promisify(execFile);

export type Server = 'primary' | 'replica';

export type ReplicatedCluster = {
  primaryUrl: string;
  replicaUrl: string;
  /** One statement on one server, on a connection of its own (the test's look at the servers, not the app's pools). */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(server: Server, text: string, values?: unknown[]): Promise<T[]>;
  /** Takes the base backup of the primary as it is now and starts the standby (call once the primary holds what the test reads). */
  makeReplica(): Promise<void>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** `pg_ctl stop -m fast` of the standby: its sessions are ended, new connections refused. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  close(): Promise<void>;
};

/** Where initdb, pg_ctl and pg_basebackup are (PG_BINDIR, else the machine's PostgreSQL 15+). */
function binDir(): string | null {
  const candidates = [process.env.PG_BINDIR, existsSync('/usr/local/bin/initdb') ? path.dirname(realpathSync('/usr/local/bin/initdb')) : undefined, '/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];
  return candidates.find((dir): dir is string => !!dir && ['initdb', 'pg_ctl', 'pg_basebackup'].every((tool) => existsSync(path.join(dir, tool)))) ?? null;
}

/** Why this machine cannot run the cluster, or null when it can. */
export function replicaClusterUnavailable(): string | null {
  if (!binDir()) return 'no initdb, pg_ctl and pg_basebackup found (set PG_BINDIR to the PostgreSQL bin directory)';
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) return 'running as root without runuser: PostgreSQL cannot be started as root';
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startReplicatedCluster(): Promise<ReplicatedCluster> {
  const bin = binDir();
  if (!bin) throw new Error(replicaClusterUnavailable() ?? 'no PostgreSQL binaries');
  const asRoot = process.getuid?.() === 0;
  const pgUser = asRoot ? (await run('id', ['-u', 'postgres'])).stdout.trim() : null;
  const pgGroup = asRoot ? (await run('id', ['-g', 'postgres'])).stdout.trim() : null;
  const tool = (name: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args));

  const root = await mkdtemp(path.join(tmpdir(), 'mi-replica-'));
  if (asRoot) {
    await chown(root, Number(pgUser), Number(pgGroup));
    await chmod(root, 0o700);
  }
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const settings = (port: number) =>
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${root}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      'hot_standby = on',
      // The standby's reads never cancel for a conflict with replay (a test's reads run while it replays).
      'hot_standby_feedback = on',
      'max_connections = 60',
      'shared_buffers = 32MB',
      'fsync = off',
      'full_page_writes = off',
      'wal_receiver_status_interval = 1s',
      '',
    ].join('\n');

  await tool('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  await appendFile(path.join(primaryDir, 'postgresql.conf'), settings(primaryPort));
  await appendFile(path.join(primaryDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 trust\n');
  await tool('pg_ctl', ['-D', primaryDir, '-l', path.join(root, 'primary.log'), '-w', 'start']);

  const primaryUrl = `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgresql://postgres@127.0.0.1:${replicaPort}/postgres`;
  let replicaMade = false;

  const query = async <T extends pg.QueryResultRow>(server: Server, text: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString: server === 'primary' ? primaryUrl : replicaUrl, application_name: 'mi-test-observer' });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  const cluster: ReplicatedCluster = {
    primaryUrl,
    replicaUrl,
    query,
    async caughtUp() {
      const [{ position }] = await query<{ position: string }>('primary', 'SELECT pg_current_wal_insert_lsn()::text AS position');
      for (;;) {
        const [{ done }] = await query<{ done: boolean }>('replica', 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [position]);
        if (done) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stopReplica() {
      await tool('pg_ctl', ['-D', replicaDir, '-m', 'fast', '-w', 'stop']);
    },
    async startReplica() {
      await tool('pg_ctl', ['-D', replicaDir, '-l', path.join(root, 'replica.log'), '-w', 'start']);
    },
    async makeReplica() {
      await tool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
      await appendFile(path.join(replicaDir, 'postgresql.conf'), settings(replicaPort));
      replicaMade = true;
      await cluster.startReplica();
      const [{ standby }] = await query<{ standby: boolean }>('replica', 'SELECT pg_is_in_recovery() AS standby');
      if (!standby) throw new Error('the replica is not in recovery: not a standby');
    },
    async close() {
      for (const dir of replicaMade ? [replicaDir, primaryDir] : [primaryDir]) await tool('pg_ctl', ['-D', dir, '-m', 'immediate', 'stop']).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };

  return cluster;
}

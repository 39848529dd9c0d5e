/**
 * Two PostgreSQL containers in synchronous streaming replication, for failover tests: a primary
 * (`wal_level=replica`, a replication user and its pg_hba entry, `synchronous_standby_names='*'`,
 * `synchronous_commit=on`, so a commit is acknowledged only once the standby has it) and a hot
 * standby cloned from it with `pg_basebackup -R` before its server starts. The standby reaches
 * the primary at its address on Docker's default bridge, so no network needs to be made or
 * removed. Both are stopped and removed by `stop()` (and by the testcontainers reaper if the
 * test process dies).
 */
import { POSTGRES_IMAGE } from '@strata/testing';
import { Client } from 'pg';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

const PASSWORD = 'failover-test';
const REPLICATION_PASSWORD = 'replication-test';
/** The database the service uses (created by the primary's entrypoint, so the standby has it). */
export const REPLICATED_DATABASE = 'strata';

// Runs once in the primary's entrypoint, on the temporary server before the real one starts:
// synchronous replication is switched on for the real server only (ALTER SYSTEM), so the
// entrypoint's own commits do not wait for a standby that does not exist yet.
const PRIMARY_INIT = `#!/bin/bash
set -e
psql -v ON_ERROR_STOP=1 --username postgres --dbname postgres <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD '${REPLICATION_PASSWORD}';
ALTER SYSTEM SET synchronous_standby_names = '*';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
`;

// The standby clones the primary, then serves read-only until promoted. Promoted, it has no
// standby of its own: it must not wait for one (the command line overrides the cloned setting).
function standbyScript(primaryHost: string): string {
  return `set -e
until pg_basebackup --pgdata="$PGDATA" --host=${primaryHost} --username=replicator \\
  --write-recovery-conf --wal-method=stream --checkpoint=fast; do
  rm -rf "$PGDATA"/*; sleep 1
done
chmod 700 "$PGDATA"
exec postgres -c synchronous_standby_names= -c hot_standby=on`;
}

/** A primary and its synchronous standby. */
export interface ReplicatedPostgres {
  readonly primary: StartedTestContainer;
  readonly standby: StartedTestContainer;
  /** Connection URL of a server's database through `port` on 127.0.0.1. */
  urlThrough(port: number): string;
  /** Stops (SIGINT: fast shutdown, as an orchestrator does) and removes the primary. */
  stopPrimary(): Promise<void>;
  /** Promotes the standby to primary and waits until it accepts writes. */
  promoteStandby(): Promise<void>;
  /** Runs one statement on a server's database as the superuser. */
  queryAt<Row>(port: number, text: string, params?: unknown[]): Promise<Row[]>;
  /** Stops and removes both containers (errors ignored: cleanup). */
  stop(): Promise<void>;
}

/** Starts the pair and waits until the standby streams synchronously. */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const started: StartedTestContainer[] = [];
  const stopAll = async () => {
    await Promise.allSettled(started.map((container) => container.stop({ timeout: 2000 })));
  };
  try {
    const primary = await new GenericContainer(POSTGRES_IMAGE)
      .withEnvironment({ POSTGRES_PASSWORD: PASSWORD, POSTGRES_DB: REPLICATED_DATABASE })
      .withCommand(['postgres', '-c', 'wal_level=replica', '-c', 'synchronous_commit=on'])
      .withCopyContentToContainer([
        {
          content: PRIMARY_INIT,
          target: '/docker-entrypoint-initdb.d/replication.sh',
          mode: 0o755,
        },
      ])
      .withExposedPorts(5432)
      // Logged twice: by the entrypoint's temporary server, then by the real one.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .withStartupTimeout(120_000)
      .start();
    started.push(primary);
    const standby = await new GenericContainer(POSTGRES_IMAGE)
      .withUser('postgres')
      .withEnvironment({ PGPASSWORD: REPLICATION_PASSWORD })
      .withEntrypoint(['bash', '-c', standbyScript(primary.getIpAddress('bridge'))])
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept read-only connections/))
      .withStartupTimeout(120_000)
      .start();
    started.push(standby);

    const urlThrough = (port: number) =>
      `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${REPLICATED_DATABASE}`;
    async function queryAt<Row>(port: number, text: string, params: unknown[] = []) {
      const client = new Client({
        connectionString: urlThrough(port),
        connectionTimeoutMillis: 5000,
      });
      await client.connect();
      try {
        return (await client.query(text, params)).rows as Row[];
      } finally {
        await client.end();
      }
    }
    const primaryPort = primary.getMappedPort(5432);
    const standbyPort = standby.getMappedPort(5432);
    await waitFor(async () => {
      const rows = await queryAt<{ sync_state: string }>(
        primaryPort,
        'SELECT sync_state FROM pg_stat_replication',
      );
      return rows.some((row) => row.sync_state === 'sync');
    }, 60_000);

    return {
      primary,
      standby,
      urlThrough,
      queryAt,
      async stopPrimary() {
        await primary.stop({ timeout: 10_000 });
      },
      async promoteStandby() {
        await queryAt(standbyPort, 'SELECT pg_promote(true, 30)');
        await waitFor(
          async () =>
            !(
              await queryAt<{ recovering: boolean }>(
                standbyPort,
                'SELECT pg_is_in_recovery() AS recovering',
              )
            )[0]?.recovering,
          30_000,
        );
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Polls `check` every 200 ms until it is true; throws after `withinMs`. */
async function waitFor(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  for (;;) {
    const done = await check().catch(() => false);
    if (done) return;
    if (Date.now() > until) throw new Error(`not true within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

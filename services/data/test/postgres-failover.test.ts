/**
 * The data service surviving its PostgreSQL primary moving, for real: a primary and a
 * synchronous hot standby (test/harness/replicated-postgres.ts) under a mixed read/write load;
 * the primary is stopped, the standby promoted, and the service's one database address moved to
 * it. The service must take writes again within 15 s of the stop, no write it acknowledged may
 * be missing on the new primary, no call may outlive its deadline, and the change feed must
 * carry on without losing a change.
 *
 * The moving address is a TCP forwarder in the test process (test/harness/moving-address.ts)
 * whose target is switched from the old primary's port to the promoted standby's: the service
 * runs on the host and reaches PostgreSQL through mapped ports, and a forwarder moves exactly
 * as a Kubernetes Service or a floating IP does (new connections reach the new server, the old
 * server's connections end) without a service image build or a container per run, which keeps
 * the test well inside its time on a loaded two-core machine.
 */
import { ChangeKind } from '@strata/proto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadDataConfig, startDataService } from '../src/index.js';
import { createTestClient } from './harness/catalog-client.js';
import { startMixedLoad, type CallRecord } from './harness/mixed-load.js';
import { startMovingAddress } from './harness/moving-address.js';
import { startReplicatedPostgres } from './harness/replicated-postgres.js';
import { collectChanges } from './harness/watch-collector.js';

const DEADLINE_MS = 3000;
// A call "hung" if it ended this long after its deadline (the client enforces the deadline).
const HANG_SLACK_MS = 1000;
const WRITES_AGAIN_WITHIN_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tally(calls: readonly CallRecord[], kind: CallRecord['kind']) {
  const mine = calls.filter((call) => call.kind === kind);
  const count = (outcome: CallRecord['outcome']) =>
    mine.filter((c) => c.outcome === outcome).length;
  return {
    attempted: mine.length,
    acknowledged: count('ok'),
    retryable: count('retryable'),
    other: count('other'),
  };
}

describe('PostgreSQL failover', () => {
  it('takes writes again within 15 s of the primary stopping, losing no acknowledged write', async () => {
    const pair = await startReplicatedPostgres();
    const address = await startMovingAddress(pair.primary.getMappedPort(5432));
    let service: Awaited<ReturnType<typeof startDataService>> | undefined;
    try {
      service = await startDataService(
        loadDataConfig({
          DATA_PORT: '0',
          DATABASE_URL: pair.urlThrough(address.port),
          DATABASE_POOL_SIZE: '6',
        }),
        pino({ level: process.env['FAILOVER_LOG'] ?? 'silent' }),
      );
      const client = createTestClient(service.address);
      const watch = collectChanges(client);
      await watch.ready;
      const load = startMixedLoad(client, {
        writers: 3,
        readers: 3,
        deadlineMs: DEADLINE_MS,
        pauseMs: 20,
        runId: String(Date.now()),
      });
      await sleep(2000);
      const before = load.acknowledged.length;

      const stoppedAt = Date.now();
      await pair.stopPrimary();
      const primaryGoneMs = Date.now() - stoppedAt;
      await pair.promoteStandby();
      const promotedMs = Date.now() - stoppedAt;
      address.moveTo(pair.standby.getMappedPort(5432));
      const movedMs = Date.now() - stoppedAt;

      const firstWriteAfter = async () => {
        const after = load.calls.filter(
          (call) => call.kind === 'write' && call.outcome === 'ok' && call.startedAt >= stoppedAt,
        );
        return after.length > 0
          ? Math.min(...after.map((call) => call.endedAt)) - stoppedAt
          : undefined;
      };
      const until = stoppedAt + WRITES_AGAIN_WITHIN_MS + 5000;
      while ((await firstWriteAfter()) === undefined && Date.now() < until) await sleep(100);
      await sleep(2000); // the load runs on against the new primary
      await load.stop();
      const writesAgainMs = await firstWriteAfter();

      const during = load.calls.filter((call) => call.endedAt >= stoppedAt);
      const reads = tally(during, 'read');
      const writes = tally(during, 'write');
      const hung = load.calls.filter(
        (call) => call.endedAt - call.startedAt > DEADLINE_MS + HANG_SLACK_MS,
      );
      const others = [
        ...new Set(during.filter((c) => c.outcome === 'other').map((c) => c.failure)),
      ];
      console.log(
        [
          `failover: primary stopped in ${primaryGoneMs} ms, standby promoted at ${promotedMs} ms, address moved at ${movedMs} ms`,
          `first acknowledged write after the stop: ${writesAgainMs ?? 'none'} ms (limit ${WRITES_AGAIN_WITHIN_MS} ms)`,
          `from the stop on, reads: ${JSON.stringify(reads)}`,
          `from the stop on, writes: ${JSON.stringify(writes)}`,
          `acknowledged writes in all: ${load.acknowledged.length} (${before} before the stop); calls past deadline: ${hung.length}`,
          `other failures: ${others.join('; ') || 'none'}`,
        ].join('\n'),
      );

      expect(writesAgainMs).toBeDefined();
      expect(writesAgainMs!).toBeLessThanOrEqual(WRITES_AGAIN_WITHIN_MS);
      expect(hung).toEqual([]);
      expect(writes.other + reads.other).toBe(0);
      expect(load.acknowledged.length).toBeGreaterThan(before);

      // Every acknowledged write is on the new primary: each item exists, at least at the
      // version the service acknowledged (a write that failed retryably may have landed too).
      const ids = [...new Set(load.acknowledged.map((write) => write.id))];
      const rows = await pair.queryAt<{ id: number; title: string; version: string }>(
        pair.standby.getMappedPort(5432),
        'SELECT id::int AS id, title, version FROM items WHERE id = ANY($1)',
        [ids],
      );
      const found = new Map(rows.map((row) => [row.id, row]));
      const missing = load.acknowledged.filter((write) => {
        const row = found.get(write.id);
        return !row || row.title !== write.title || Number(row.version) < write.version;
      });
      expect(missing).toEqual([]);

      // The watcher saw every acknowledged change, and no RESET: with synchronous replication
      // the new primary has every change the old one acknowledged.
      const unseen = () => {
        const seen = new Set(watch.events.map((event) => event.sequence));
        return load.acknowledged.filter((write) => !seen.has(write.sequence)).length;
      };
      await expect.poll(unseen, { timeout: 5000 }).toBe(0);
      expect(watch.events.filter((event) => event.kind === ChangeKind.CHANGE_KIND_RESET)).toEqual(
        [],
      );
      watch.close();
      client.close();
    } finally {
      await service?.stop();
      await address.close();
      await pair.stop();
    }
  }, 150_000);
});

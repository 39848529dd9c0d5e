/**
 * A Sentinel group of real Redis containers (redis:7-bookworm) on their own Docker network: one
 * master, one replica and three sentinels (quorum 2), all with passwords. The render process on
 * the host reaches every container at its address on that network (a bridge the host routes
 * to), which is also the address the sentinels report, so no address translation is involved.
 * Fast failure detection (down after 1 s) keeps a failover within a few seconds.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import {
  GenericContainer,
  Network,
  Wait,
  type StartedNetwork,
  type StartedTestContainer,
} from 'testcontainers';
import { REDIS_IMAGE } from '@strata/testing';
import { eventually } from './start-cached-render.js';

/** The master group's name, as REDIS_SENTINEL_MASTER gives it. */
export const MASTER_NAME = 'strata';
export const DATA_PASSWORD = 'test-data-password';
export const SENTINEL_PASSWORD = 'test-sentinel-password';
const SENTINEL_PORT = 26379;

/** A started group. */
export interface SentinelGroup {
  /** REDIS_SENTINELS and its companions for the render service. */
  readonly env: Readonly<Record<string, string>>;
  readonly masterAddress: string;
  readonly replicaAddress: string;
  /** A client of the first master / replica (test assertions and replication control). */
  connectTo(address: string): Redis;
  /** host:port of the master the sentinels name now. */
  reportedMaster(): Promise<string>;
  /** SIGKILL, no shutdown: a crashed master. */
  killMaster(): Promise<void>;
  stop(): Promise<void>;
}

const start = (container: GenericContainer, network: StartedNetwork, log: string) =>
  container.withNetwork(network).withWaitStrategy(Wait.forLogMessage(log)).start();

function dataNode(network: StartedNetwork, replicaOf?: string) {
  const command = ['redis-server', '--save', '', '--appendonly', 'no'];
  command.push('--requirepass', DATA_PASSWORD, '--masterauth', DATA_PASSWORD);
  if (replicaOf) command.push('--replicaof', replicaOf, '6379');
  return start(
    new GenericContainer(REDIS_IMAGE).withCommand(command),
    network,
    replicaOf ? 'MASTER <-> REPLICA sync: Finished with success' : 'Ready to accept connections',
  );
}

function sentinel(network: StartedNetwork, masterIp: string) {
  const config = [
    `port ${SENTINEL_PORT}`,
    `requirepass ${SENTINEL_PASSWORD}`,
    `sentinel monitor ${MASTER_NAME} ${masterIp} 6379 2`,
    `sentinel auth-pass ${MASTER_NAME} ${DATA_PASSWORD}`,
    `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
    `sentinel failover-timeout ${MASTER_NAME} 10000`,
  ];
  // Sentinel rewrites its configuration file: it must be writable (root in /tmp, test only).
  const script = `printf '%s\\n' ${config.map((line) => `'${line}'`).join(' ')} > /tmp/sentinel.conf && exec redis-server /tmp/sentinel.conf --sentinel`;
  return start(
    new GenericContainer(REDIS_IMAGE).withCommand(['sh', '-c', script]),
    network,
    '+monitor master',
  );
}

const addressOf = (container: StartedTestContainer, network: StartedNetwork) =>
  container.getIpAddress(network.getName());

/** Starts the group and waits until every sentinel knows the replica and the other sentinels. */
export async function startSentinelGroup(): Promise<SentinelGroup> {
  process.env['TESTCONTAINERS_HOST_OVERRIDE'] ??= '127.0.0.1';
  const network = await new Network().start();
  const containers: StartedTestContainer[] = [];
  const clients: Redis[] = [];
  try {
    const master = await dataNode(network);
    containers.push(master);
    const masterIp = addressOf(master, network);
    const replica = await dataNode(network, masterIp);
    containers.push(replica);
    const sentinels = await Promise.all([1, 2, 3].map(() => sentinel(network, masterIp)));
    containers.push(...sentinels);
    const sentinelIps = sentinels.map((container) => addressOf(container, network));
    const askSentinel = (ip: string) => {
      const client = new Redis({ host: ip, port: SENTINEL_PORT, password: SENTINEL_PASSWORD });
      clients.push(client);
      return client;
    };
    const asked = sentinelIps.map(askSentinel);
    const formed = async () => {
      const views = await Promise.all(
        asked.map(async (client) => [
          ((await client.call('SENTINEL', 'REPLICAS', MASTER_NAME)) as unknown[]).length,
          ((await client.call('SENTINEL', 'SENTINELS', MASTER_NAME)) as unknown[]).length,
        ]),
      );
      return views.every(([replicas, others]) => replicas === 1 && others === 2);
    };
    await eventually(() => formed().catch(() => false), 30_000, 'the Sentinel group to form');
    return {
      env: {
        REDIS_SENTINELS: sentinelIps.map((ip) => `${ip}:${SENTINEL_PORT}`).join(','),
        REDIS_SENTINEL_MASTER: MASTER_NAME,
        REDIS_PASSWORD: DATA_PASSWORD,
        REDIS_SENTINEL_PASSWORD: SENTINEL_PASSWORD,
      },
      masterAddress: `${masterIp}:6379`,
      replicaAddress: `${addressOf(replica, network)}:6379`,
      connectTo(address) {
        const [host, port] = address.split(':');
        const client = new Redis({ host, port: Number(port), password: DATA_PASSWORD });
        client.on('error', () => undefined); // the master is killed while this is open
        clients.push(client);
        return client;
      },
      async reportedMaster() {
        const [host, port] = (await asked[0]!.call(
          'SENTINEL',
          'GET-MASTER-ADDR-BY-NAME',
          MASTER_NAME,
        )) as [string, string];
        return `${host}:${port}`;
      },
      async killMaster() {
        await promisify(execFile)('docker', ['kill', master.getId()]);
      },
      stop: () => stopAll(containers, clients, network),
    };
  } catch (error) {
    await stopAll(containers, clients, network);
    throw error;
  }
}

async function stopAll(
  containers: StartedTestContainer[],
  clients: Redis[],
  network: StartedNetwork,
) {
  for (const client of clients) client.disconnect();
  await Promise.allSettled(containers.map((container) => container.stop({ timeout: 0 })));
  await network.stop().catch(() => undefined);
}

/**
 * docker-stack.yml deployed on the test cluster the way docs/swarm.md tells an operator to:
 * secrets created first, variables from `.env` (plus the test's own env file) exported by the
 * shell, `docker stack deploy --resolve-image never`. Then what the tests ask of it: its tasks
 * (node, container, addresses), commands inside them, the gateway's access log, convergence.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../harness/processes.js';
import { run } from '../compose/compose-stack.js';
import type { Cluster, Node } from './cluster.js';
import { freshStackSecrets } from '../harness/stack-secrets.js';

/** The config files the stack ships as Swarm configs; their hash names the configs. */
const CONFIG_FILES = [
  'infra/gateway/nginx.conf',
  'infra/gateway/browser-headers.conf',
  'infra/gateway/start.sh',
  'infra/redis/redis.conf',
  'infra/redis/redis-auth.sh',
];

/** One running task of a service. */
export interface Task {
  readonly id: string;
  readonly node: Node;
  readonly container: string;
  /** Its address on each of the stack's networks, by short name (`web`, `cache`, …). */
  readonly addresses: Readonly<Record<string, string>>;
}

export interface SwarmStack {
  readonly name: string;
  /** http://127.0.0.1:<port>: the gateway's host-mode port on node one. */
  readonly url: string;
  /** The Swarm name of one of the stack's services (`<stack>_<service>`). */
  service(name: string): string;
  /** The service's running tasks. */
  tasks(service: string): Promise<Task[]>;
  /** Runs a command in a task's container, on its node. */
  exec(task: Task, ...command: string[]): Promise<string>;
  /** The gateway's output (its JSON access log and start.sh's lines). */
  gatewayLog(): Promise<string>;
  /** Waits until every service runs all its tasks (healthy, where it has a health check). */
  waitConverged(timeoutMs?: number): Promise<void>;
}

export interface DeployOptions {
  /** Variables for the test's env file, read after `.env` (they win, as a production env file). */
  readonly env?: Record<string, string>;
  /** Extra stack files merged over docker-stack.yml. */
  readonly overrides?: readonly string[];
}

/** Creates the secrets, deploys, and waits until the gateway serves pages. */
export async function deploySwarmStack(
  cluster: Cluster,
  options: DeployOptions = {},
): Promise<SwarmStack> {
  const name = `strata-swarm-${process.pid}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const manager = (...args: string[]) => cluster.docker('one', ...args);
  const scratch = mkdtempSync(join(tmpdir(), 'strata-swarm-'));
  try {
    await createSecrets(manager, scratch);
    const envFile = join(scratch, 'test.env');
    const env = {
      STRATA_TAG: process.env['STRATA_TAG'] || 'local',
      GATEWAY_PORT: String(port),
      PUBLIC_ORIGINS: url,
      ...options.env,
    };
    writeFileSync(
      envFile,
      Object.entries(env)
        .map(([key, value]) => `${key}='${value.replaceAll("'", "'\\''")}'`)
        .join('\n'),
    );
    const files = ['docker-stack.yml', ...(options.overrides ?? [])].map((file) => `-c ${file}`);
    // Exactly the documented steps (docs/swarm.md, "Deploy").
    await run([
      'sh',
      '-c',
      `set -a; . ./.env; . '${envFile}'; set +a
       export STRATA_CONFIG_REVISION=$(cat ${CONFIG_FILES.join(' ')} | sha256sum | cut -c1-12)
       docker stack deploy --resolve-image never ${files.join(' ')} ${name}`,
    ]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const stack: SwarmStack = {
    name,
    url,
    service: (service) => `${name}_${service}`,
    async tasks(service) {
      const ids = (
        await manager(
          'service',
          'ps',
          '-q',
          '--no-trunc',
          '-f',
          'desired-state=running',
          stack.service(service),
        )
      )
        .split('\n')
        .filter(Boolean);
      if (ids.length === 0) return [];
      const tasks = JSON.parse(await manager('inspect', '--type', 'task', ...ids)) as RawTask[];
      return tasks
        .filter((task) => task.Status.State === 'running')
        .map((task) => ({
          id: task.ID,
          node: task.NodeID === cluster.nodeIds.one ? 'one' : 'two',
          container: task.Status.ContainerStatus?.ContainerID ?? '',
          addresses: Object.fromEntries(
            (task.NetworksAttachments ?? []).map((attachment) => [
              attachment.Network.Spec.Name.replace(`${name}_`, ''),
              (attachment.Addresses[0] ?? '').replace(/\/\d+$/, ''),
            ]),
          ),
        }));
    },
    exec: (task, ...command) => cluster.docker(task.node, 'exec', task.container, ...command),
    async gatewayLog() {
      const gateways = await stack.tasks('gateway');
      const logs = await Promise.all(
        gateways.map((task) => cluster.docker(task.node, 'logs', task.container)),
      );
      return logs.join('\n');
    },
    async waitConverged(timeoutMs = 240_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const listing = await manager(
          'service',
          'ls',
          '--filter',
          `label=com.docker.stack.namespace=${name}`,
          '--format',
          '{{.Name}} {{.Replicas}}',
        );
        const pending = listing
          .split('\n')
          .filter(Boolean)
          .filter((line) => {
            const [running, wanted] = (line.split(' ')[1] ?? '').split('/');
            return running !== wanted;
          });
        if (listing.trim() && pending.length === 0) return;
        if (Date.now() > deadline) {
          const history = await manager('stack', 'ps', '--no-trunc', name).catch(String);
          throw new Error(`not converged: ${pending.join(', ')}\n${history}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
  };
  await stack.waitConverged();
  await untilAnswers(`${url}/bench/items`);
  return stack;
}

/** The six secrets docs/swarm.md creates, with fresh random values (never written to logs). */
async function createSecrets(
  manager: (...args: string[]) => Promise<string>,
  directory: string,
): Promise<void> {
  for (const [key, value] of Object.entries(freshStackSecrets())) {
    const file = join(directory, key);
    writeFileSync(file, value, { mode: 0o600 });
    await manager('secret', 'create', `strata_${key}`, file);
  }
}

async function untilAnswers(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** What `docker inspect --type task` says, as far as the tests read it. */
interface RawTask {
  readonly ID: string;
  readonly NodeID: string;
  readonly Status: { State: string; ContainerStatus?: { ContainerID: string } };
  readonly NetworksAttachments?: readonly {
    Network: { Spec: { Name: string } };
    Addresses: readonly string[];
  }[];
}

/** The `upstream` of the gateway's access-log line for a request id (undefined: not logged yet). */
export function upstreamOf(log: string, requestId: string): string | undefined {
  const line = log.split('\n').find((entry) => entry.includes(`"request_id":"${requestId}"`));
  return line ? /"upstream":"([^"]*)"/.exec(line)?.[1] : undefined;
}

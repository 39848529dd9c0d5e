/**
 * The two-node Swarm the Swarm tests run on, from code: creates it with cluster.sh (node one is
 * this machine's engine, node two a second dockerd in a network namespace), runs docker against
 * either node, copies images to node two, and tears it all down again, also when the test
 * process dies: a detached reaper watches it and runs `cluster.sh down` for it.
 */
import { spawn } from 'node:child_process';
import { ROOT, run } from '../compose/compose-stack.js';

const SCRIPT = 'e2e/swarm/cluster.sh';

/** Which engine of the cluster. */
export type Node = 'one' | 'two';

export interface Cluster {
  /** Swarm node ids. */
  readonly nodeIds: Readonly<Record<Node, string>>;
  /** The hostnames `docker service ps` shows for each node. */
  readonly hostnames: Readonly<Record<Node, string>>;
  /** Runs docker against a node's engine (node one is the manager). */
  docker(node: Node, ...args: string[]): Promise<string>;
  /** Copies images from node one to node two (`docker save | docker load`). */
  loadImages(images: readonly string[]): Promise<void>;
  /** Everything `create` made, gone: swarm left on both engines, node two and its network. */
  tearDown(): Promise<void>;
}

/** Creates the cluster (after removing what an interrupted run left behind). */
export async function createCluster(): Promise<Cluster> {
  const owner = String(process.pid);
  const reaper = startReaper(owner);
  let facts: Record<string, string>;
  try {
    facts = parseFacts(await run(['bash', SCRIPT, 'up', '--owner', owner], { timeoutMs: 180_000 }));
  } catch (error) {
    await run(['bash', SCRIPT, 'down', '--owner', owner]).catch(() => undefined);
    reaper.kill();
    throw error;
  }
  const secondHost = required(facts, 'SECOND_DOCKER_HOST');
  const docker = (node: Node, ...args: string[]) =>
    run(node === 'one' ? ['docker', ...args] : ['docker', '-H', secondHost, ...args], {
      timeoutMs: 300_000,
    });
  const hostnameOne = (await docker('one', 'info', '-f', '{{.Name}}')).trim();
  return {
    nodeIds: { one: required(facts, 'NODE_ONE'), two: required(facts, 'NODE_TWO') },
    hostnames: { one: hostnameOne, two: required(facts, 'NODE_TWO_HOSTNAME') },
    docker,
    async loadImages(images) {
      // One archive for all of them: layers the images share are copied once.
      const quoted = images.map((image) => `'${image}'`).join(' ');
      await run(['sh', '-c', `docker save ${quoted} | docker -H '${secondHost}' load -q`], {
        timeoutMs: 300_000,
      });
    },
    async tearDown() {
      await run(['bash', SCRIPT, 'down', '--owner', owner], { timeoutMs: 300_000 });
      reaper.kill();
    },
  };
}

/**
 * A detached shell that waits for this process to end, then runs `cluster.sh down` for it:
 * Vitest's hooks do not run when the worker is killed (Ctrl-C, a time-out). It is in a session
 * of its own, so the signal that stopped the tests does not stop it.
 */
function startReaper(owner: string): { kill(): void } {
  const script = `while kill -0 ${owner} 2>/dev/null; do sleep 1; done; exec bash ${SCRIPT} down --owner ${owner}`;
  const child = spawn('sh', ['-c', script], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return {
    kill() {
      if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid);
    },
  };
}

function parseFacts(output: string): Record<string, string> {
  return Object.fromEntries(
    output
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter((match) => match !== null)
      .map((match) => [match[1], match[2]]),
  );
}

function required(facts: Record<string, string>, key: string): string {
  const value = facts[key];
  if (!value) throw new Error(`cluster.sh up printed no ${key}`);
  return value;
}

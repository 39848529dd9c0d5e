/**
 * The Swarm harness on its own: two engines of this machine form a cluster whose tasks reach
 * each other over an overlay network (VXLAN between the nodes), and tearing it down leaves the
 * machine as it was: no second daemon, namespace, veth, swarm or network of ours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../compose/compose-stack.js';
import { createCluster, type Cluster, type Node } from './cluster.js';

/** What the harness may add to the machine, and whether it is there now. */
async function traces(): Promise<Record<string, string>> {
  const shell = (script: string) => run(['sh', '-c', script]).then((out) => out.trim());
  return {
    netns: await shell('ip netns list | grep -c "^strata-swarm\\b" || true'),
    veth: await shell('ip link show strata-sw0 >/dev/null 2>&1 && echo present || echo absent'),
    daemon: await shell('pgrep -f -- "--pidfile /run/strata-swarm/dockerd[.]pid" || echo none'),
    directories: await shell('ls -d /run/strata-swarm /var/lib/strata-swarm 2>/dev/null || true'),
    swarm: await shell("docker info -f '{{.Swarm.LocalNodeState}}'"),
    gwbridge: await shell('docker network ls -q --filter name=^docker_gwbridge$ | wc -l'),
  };
}

const IMAGE = 'nginx:stable-bookworm';
const SERVICE = `strata-swarm-probe-${process.pid}`;

let before: Record<string, string>;
let cluster: Cluster | undefined;

beforeAll(async () => {
  before = await traces();
}, 60_000);

afterAll(async () => {
  await cluster?.tearDown();
}, 300_000);

/** The probe's task on a node: its container and its address on the overlay network. */
async function probeOn(node: Node): Promise<{ container: string; address: string }> {
  const container = (
    await cluster!.docker(
      node,
      'ps',
      '-q',
      '--filter',
      `label=com.docker.swarm.service.name=${SERVICE}`,
    )
  ).trim();
  const address = (
    await cluster!.docker(
      node,
      'inspect',
      '-f',
      `{{(index .NetworkSettings.Networks "${SERVICE}").IPAddress}}`,
      container,
    )
  ).trim();
  return { container, address };
}

describe('the two-node cluster', () => {
  it('runs one task per node, and they reach each other over an overlay network', async () => {
    cluster = await createCluster();
    expect((await cluster.docker('one', 'node', 'ls', '-q')).trim().split('\n').sort()).toEqual(
      [cluster.nodeIds.one, cluster.nodeIds.two].sort(),
    );
    await cluster.loadImages([IMAGE]);
    await cluster.docker('one', 'network', 'create', '-d', 'overlay', SERVICE);
    await cluster.docker(
      'one',
      'service',
      'create',
      '-d',
      '--name',
      SERVICE,
      '--mode',
      'global',
      '--endpoint-mode',
      'dnsrr',
      '--network',
      SERVICE,
      IMAGE,
    );
    let running: string[] = [];
    for (const deadline = Date.now() + 60_000; running.length < 2; await sleep(500)) {
      const states = await cluster.docker(
        'one',
        'service',
        'ps',
        SERVICE,
        '--format',
        '{{.Node}} {{.CurrentState}}',
      );
      running = states.split('\n').filter((line) => / Running /.test(line));
      if (Date.now() > deadline) throw new Error(`probe tasks not running:\n${states}`);
    }
    // One on each node, told apart by their hostnames.
    expect(running.map((line) => line.split(' ')[0]).sort()).toEqual(
      [cluster.hostnames.one, cluster.hostnames.two].sort(),
    );
    const one = await probeOn('one');
    const two = await probeOn('two');
    const get = (node: Node, from: string, address: string) =>
      cluster!.docker(
        node,
        'exec',
        from,
        'bash',
        '-c',
        `exec 3<>/dev/tcp/${address}/80 && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && head -n1 <&3`,
      );
    expect(await get('one', one.container, two.address)).toMatch(/^HTTP\/1\.1 200/);
    expect(await get('two', two.container, one.address)).toMatch(/^HTTP\/1\.1 200/);
  }, 300_000);

  it('tears down to the machine it found', async () => {
    await cluster!.tearDown();
    cluster = undefined;
    expect(await traces()).toEqual({
      netns: '0',
      veth: 'absent',
      daemon: 'none',
      directories: '',
      swarm: 'inactive',
      // docker_gwbridge stays only if it was there before swarm mode (a leftover swarm of an
      // interrupted run takes its own with it).
      gwbridge: before.swarm === 'inactive' ? before.gwbridge : '0',
    });
  }, 300_000);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

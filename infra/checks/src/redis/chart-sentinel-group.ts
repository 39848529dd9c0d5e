/**
 * The chart's Redis through Sentinel, run from its own render: the ConfigMap's files, each
 * StatefulSet's command, environment (the pod's name for `metadata.name`, `$(VAR)` expanded as
 * the kubelet does), user and emptyDir volumes, the render service's REDIS_SENTINELS, on the pods
 * of docker-pods.ts. Everything a cluster would add (scheduling, probes, restarts) is left out:
 * the checks replace pods themselves.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigMap, Container, EnvVar } from 'kubernetes-types/core/v1.js';
import type { Deployment, StatefulSet } from 'kubernetes-types/apps/v1.js';
import { Redis } from 'ioredis';
import { parseManifests } from '../helm/manifests.js';
import { RELEASE, renderChart } from '../helm/helm-cli.js';
import { REPOSITORY_ROOT } from '../helm/chart-paths.js';
import { startDockerPods, type DockerPods, type PodSpec } from './docker-pods.js';

const VALUES = join(REPOSITORY_ROOT, 'infra/helm/strata/ci/redis-sentinel-values.yaml');
const PASSWORD = 'ci-example-redis-password'; // the scenario's
const PROBE = join(REPOSITORY_ROOT, 'infra/checks/src/redis/render-probe.mjs');

export interface ChartSentinelGroup {
  readonly pods: DockerPods;
  readonly dataNodes: readonly string[];
  readonly sentinels: readonly string[];
  /** A pod's stable DNS name. */
  fqdn(pod: string): string;
  /** Starts (or starts again after remove) a pod with a new address. */
  start(pod: string): Promise<string>;
  /** Removes the pod and starts it again at once: same name, new address. */
  replace(pod: string): Promise<{ before: string; after: string }>;
  /** Runs `fn` with a client of the pod (its address; data or sentinel port). */
  withClient<T>(pod: string, fn: (client: Redis) => Promise<T>): Promise<T>;
  /** The render side (@strata/redis in a container on the network): the run_id it writes to. */
  probe(): Promise<string>;
  stop(): Promise<void>;
}

const find = <T>(objects: { object: unknown }[], kind: string, name: string): T => {
  const found = objects.find(({ object }) => {
    const { kind: k, metadata } = object as { kind: string; metadata: { name: string } };
    return k === kind && metadata.name === name;
  });
  if (!found) throw new Error(`the render has no ${kind}/${name}`);
  return found.object as T;
};

/** A container's environment as the kubelet sets it for `pod`. */
function environment(env: readonly EnvVar[], pod: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const variable of env) {
    if (variable.valueFrom?.fieldRef?.fieldPath === 'metadata.name') values[variable.name] = pod;
    else if (variable.value !== undefined)
      values[variable.name] = variable.value.replace(/\$\((\w+)\)/g, (_, n: string) => values[n]!);
    else throw new Error(`no value for ${variable.name}`);
  }
  return values;
}

export async function startChartSentinelGroup(hostnames: boolean): Promise<ChartSentinelGroup> {
  const rendered = await renderChart({
    valuesFiles: [VALUES],
    set: [`redis.sentinel.hostnames=${hostnames}`],
  });
  const objects = parseManifests(rendered);
  const files = await mkdtemp(join(tmpdir(), 'strata-sentinel-'));
  const configMap = find<ConfigMap>(objects, 'ConfigMap', 'strata-redis');
  for (const [name, text] of Object.entries(configMap.data ?? {}))
    await writeFile(join(files, name), text, { mode: 0o444 });
  await writeFile(join(files, 'REDIS_PASSWORD'), PASSWORD, { mode: 0o444 });

  const specs = new Map<string, { fqdn: string; spec: PodSpec; port: number }>();
  for (const [name, port] of [
    ['strata-redis', 6379],
    ['strata-redis-sentinel', 26379],
  ] as const) {
    const set = find<StatefulSet>(objects, 'StatefulSet', name);
    const pod = set.spec!.template.spec!;
    const container: Container = pod.containers[0]!;
    const mounts = container.volumeMounts ?? [];
    const emptyDirs = (pod.volumes ?? []).filter((volume) => volume.emptyDir).map((v) => v.name);
    const mounted: Record<string, string> = {};
    for (const mount of mounts) {
      if (mount.name === 'config') mounted[join(files, mount.subPath!)] = mount.mountPath;
      if (mount.name === 'secrets')
        mounted[join(files, 'REDIS_PASSWORD')] = `${mount.mountPath}/REDIS_PASSWORD`;
    }
    for (let ordinal = 0; ordinal < set.spec!.replicas!; ordinal += 1) {
      const podName = `${name}-${ordinal}`;
      specs.set(podName, {
        fqdn: `${podName}.${set.spec!.serviceName}.${RELEASE.namespace}.svc.cluster.local`,
        port,
        spec: {
          image: container.image!,
          command: container.command!,
          env: environment(container.env ?? [], podName),
          files: mounted,
          emptyDirs: mounts.filter((m) => emptyDirs.includes(m.name)).map((m) => m.mountPath),
          user: pod.securityContext!.runAsUser!,
        },
      });
    }
  }
  const render = find<Deployment>(objects, 'Deployment', 'strata-render');
  const renderEnv = render.spec!.template.spec!.containers[0]!.env ?? [];
  const sentinelList = renderEnv.find((variable) => variable.name === 'REDIS_SENTINELS')!.value!;

  const pods = await startDockerPods();
  const spec = (pod: string) => {
    const found = specs.get(pod);
    if (!found) throw new Error(`the chart renders no pod ${pod}`);
    return found;
  };
  const start = (pod: string) => pods.start(pod, spec(pod).fqdn, spec(pod).spec);
  let probeAddress: string | undefined;
  const group: ChartSentinelGroup = {
    pods,
    dataNodes: [...specs.keys()].filter((pod) => spec(pod).port === 6379),
    sentinels: [...specs.keys()].filter((pod) => spec(pod).port === 26379),
    fqdn: (pod) => spec(pod).fqdn,
    start,
    async replace(pod) {
      const before = pods.address(pod)!;
      await pods.remove(pod);
      return { before, after: await start(pod) };
    },
    async withClient(pod, fn) {
      const address = pods.address(pod);
      if (!address) throw new Error(`${pod} is gone`);
      const client = new Redis({
        host: address,
        port: spec(pod).port,
        password: PASSWORD,
        lazyConnect: true,
        connectTimeout: 1000,
        commandTimeout: 2000,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined); // reported by the call that fails
      try {
        await client.connect();
        return await fn(client);
      } finally {
        client.disconnect();
      }
    },
    async probe() {
      probeAddress ??= await pods.startScript('render-probe', PROBE, {
        REDIS_SENTINELS: sentinelList,
        REDIS_SENTINEL_MASTER: 'strata',
        REDIS_PASSWORD: PASSWORD,
        REDIS_SENTINEL_PASSWORD: PASSWORD,
      });
      const response = await fetch(`http://${probeAddress}:8080/`, {
        signal: AbortSignal.timeout(3000),
      });
      const body = await response.text();
      if (!response.ok) throw new Error(`the render side: ${body}`);
      return body;
    },
    async stop() {
      await pods.stop();
      await rm(files, { recursive: true, force: true });
    },
  };
  return group;
}

/**
 * What the values do to the render: images by tag or digest, the existing Secret mounted as
 * files, fixed replicas without autoscalers, derived public origins, fully qualified names for
 * nginx, the migration hook, the relay's grace period, and names or addresses for Sentinel.
 */
import type { Deployment, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Container, PodSpec, Service } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { installDryRun } from '../../src/helm/helm-cli.js';
import { podTemplates } from '../../src/helm/pod-templates.js';
import { ciScenarios } from '../../src/helm/chart-paths.js';
import { objectNamed, renderDefaults, renderNamed, renderScenario } from './rendered-scenarios.js';

const scenarioFile = async (name: string) =>
  (await ciScenarios()).find((scenario) => scenario.name === name)?.valuesFile ?? name;

const images = (pods: { spec: PodSpec }[]) =>
  pods.flatMap((pod) => pod.spec.containers.map((container) => container.image));

const env = (container: Container | undefined, name: string) =>
  container?.env?.find((variable) => variable.name === name)?.value;

const firstContainer = (workload: Deployment | StatefulSet | Job) =>
  workload.spec?.template.spec?.containers[0];

describe('chart values', () => {
  it('tags images with the appVersion by default, and a digest wins over the tag', async () => {
    const defaults = await renderDefaults();
    expect(images(podTemplates(defaults.objects))).toEqual(
      expect.arrayContaining(['strata-render:0.1.0', 'strata-data:0.1.0', 'nginx:stable-bookworm']),
    );
    const digests = await renderScenario('digests');
    const render = objectNamed<Deployment>(digests, 'Deployment', 'strata-render');
    expect(firstContainer(render)?.image).toBe(
      `registry.example.com/strata/strata-render@sha256:${'1'.repeat(64)}`,
    );
    const migration = objectNamed<Job>(digests, 'Job', 'strata-migration');
    expect(firstContainer(migration)?.image).toBe(
      `registry.example.com/strata/strata-data@sha256:${'2'.repeat(64)}`,
    );
    expect(render.spec?.template.spec?.imagePullSecrets).toEqual([
      { name: 'registry-credentials' },
    ]);
  });

  it('mounts an existing Secret as files and creates none', async () => {
    const existing = await renderScenario('existing-secret');
    expect(existing.objects.some(({ object }) => object.kind === 'Secret')).toBe(false);
    const data = objectNamed<Deployment>(existing, 'Deployment', 'strata-data');
    const volume = data.spec?.template.spec?.volumes?.find((each) => each.name === 'secrets');
    expect(volume?.secret?.secretName).toBe('strata-production');
    expect(volume?.secret?.items?.map((item) => item.key)).toEqual([
      'PAGE_TOKEN_SECRET',
      'DATABASE_URL',
    ]);
    const container = firstContainer(data);
    expect(env(container, 'DATABASE_URL_FILE')).toBe('/run/secrets/strata/DATABASE_URL');
    expect(container?.env?.some((variable) => variable.name === 'DATABASE_URL')).toBe(false);
  });

  it('builds the bundled databases’ URLs into the chart’s Secret', async () => {
    const bundled = await renderScenario('bundled');
    const secret = objectNamed<{ data: Record<string, string> }>(
      bundled,
      'Secret',
      'strata-secrets',
    );
    const decoded = (key: string) => Buffer.from(secret.data[key] ?? '', 'base64').toString();
    expect(decoded('DATABASE_URL')).toBe(
      'postgres://strata:ci-example-postgres-password@strata-postgresql.strata.svc.cluster.local:5432/strata',
    );
    expect(decoded('REDIS_URL')).toBe(
      'redis://:ci-example-redis-password@strata-redis.strata.svc.cluster.local:6379',
    );
    // No database exists before the first install: the Job runs on upgrades only.
    const migration = objectNamed<Job & { metadata: { annotations: Record<string, string> } }>(
      bundled,
      'Job',
      'strata-migration',
    );
    expect(migration.metadata.annotations['helm.sh/hook']).toBe('pre-upgrade');
  });

  it('runs the migration as a pre-install/pre-upgrade hook after the Secret', async () => {
    const defaults = await renderScenario('defaults');
    const annotations = (kind: string, name: string) =>
      defaults.objects.find(({ object }) => object.kind === kind && object.metadata.name === name)
        ?.object.metadata.annotations;
    expect(annotations('Job', 'strata-migration')).toMatchObject({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-weight': '0',
    });
    expect(annotations('Secret', 'strata-secrets')).toMatchObject({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-weight': '-10',
    });
  });

  it('without autoscaling, sets replicas and renders no HorizontalPodAutoscaler', async () => {
    const fixed = await renderScenario('no-autoscaling');
    expect(fixed.objects.some(({ object }) => object.kind === 'HorizontalPodAutoscaler')).toBe(
      false,
    );
    expect(objectNamed<Deployment>(fixed, 'Deployment', 'strata-render').spec?.replicas).toBe(3);
    expect(objectNamed<StatefulSet>(fixed, 'StatefulSet', 'strata-relay').spec?.replicas).toBe(1);
    // An in-process cache needs no REDIS_URL, so none is mounted.
    const render = firstContainer(objectNamed<Deployment>(fixed, 'Deployment', 'strata-render'));
    expect(env(render, 'REDIS_URL_FILE')).toBeUndefined();
    const defaults = await renderScenario('defaults');
    const scaled = defaults.objects.filter(
      ({ object }) => object.kind === 'HorizontalPodAutoscaler',
    );
    expect(scaled.map(({ object }) => object.metadata.name).sort()).toEqual([
      'strata-data',
      'strata-relay',
      'strata-render',
    ]);
  });

  it('takes PUBLIC_ORIGINS from the ingress or route hosts when none are given', async () => {
    const origins = await Promise.all(
      ['ingress', 'httproute'].map(async (scenario) => {
        const rendered = await renderScenario(scenario);
        const render = objectNamed<Deployment>(rendered, 'Deployment', 'strata-render');
        return env(firstContainer(render), 'PUBLIC_ORIGINS');
      }),
    );
    expect(origins).toEqual(['https://strata.example.com', 'https://strata.example.com']);
  });

  it('hands nginx and the services fully qualified names in the release namespace', async () => {
    const rendered = await renderNamed('cluster domain', { set: ['clusterDomain=k8s.internal'] });
    const gateway = firstContainer(
      objectNamed<Deployment>(rendered, 'Deployment', 'strata-gateway'),
    );
    expect(env(gateway, 'GATEWAY_RENDER_ADDRESS')).toBe(
      'strata-render.strata.svc.k8s.internal:3000',
    );
    expect(env(gateway, 'GATEWAY_RELAY_ADDRESS')).toBe('strata-relay.strata.svc.k8s.internal:3100');
    const render = firstContainer(objectNamed<Deployment>(rendered, 'Deployment', 'strata-render'));
    expect(env(render, 'DATA_SERVICE_ADDRESS')).toBe('strata-data.strata.svc.k8s.internal:50051');
    expect(env(render, 'RELAY_URL')).toBe(
      'http://strata-gateway-internal.strata.svc.k8s.internal:8081',
    );
  });

  it('has the Sentinel nodes announce their pods’ names by default, addresses when told', async () => {
    const names = await renderScenario('redis-sentinel');
    const addresses = await renderNamed('redis-sentinel addresses', {
      valuesFiles: [await scenarioFile('redis-sentinel')],
      set: ['redis.sentinel.hostnames=false'],
    });
    for (const [component, service] of [
      ['strata-redis', 'strata-redis'],
      ['strata-redis-sentinel', 'strata-redis-sentinel'],
    ] as const) {
      const node = firstContainer(objectNamed<StatefulSet>(names, 'StatefulSet', component));
      expect(node?.env).toEqual(
        expect.arrayContaining([
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'REDIS_NODE_NAME', value: `$(POD_NAME).${service}.strata.svc.cluster.local` },
        ]),
      );
      const byAddress = firstContainer(
        objectNamed<StatefulSet>(addresses, 'StatefulSet', component),
      );
      expect(byAddress?.env?.map((variable) => variable.name)).not.toContain('REDIS_NODE_NAME');
    }
    // A starting node's name resolves (the sentinels refuse a master name that does not).
    const published = (render: typeof names) =>
      objectNamed<Service>(render, 'Service', 'strata-redis').spec?.publishNotReadyAddresses;
    expect(published(names)).toBe(true);
    expect(published(addresses)).toBeUndefined();
  });

  it('keeps the reports and status ports off the public gateway Service', async () => {
    const rendered = await renderNamed('load balancer', {
      set: ['gateway.service.type=LoadBalancer'],
    });
    const ports = (name: string) =>
      objectNamed<{ spec: { type?: string; ports: { port: number }[] } }>(rendered, 'Service', name)
        .spec;
    expect(ports('strata-gateway')).toMatchObject({
      type: 'LoadBalancer',
      ports: [{ port: 8080 }],
    });
    expect(ports('strata-gateway-internal').type).toBe('ClusterIP');
  });

  it('gives the relay a grace period covering its drain', async () => {
    const rendered = await renderNamed('long drain', { set: ['relay.drainSeconds=45'] });
    const relay = objectNamed<StatefulSet>(rendered, 'StatefulSet', 'strata-relay');
    expect(env(firstContainer(relay), 'RELAY_SHUTDOWN_TIMEOUT')).toBe('45s');
    expect(relay.spec?.template.spec?.terminationGracePeriodSeconds).toBe(5 + 45 + 15);
  });

  it('tells after an install what is still unset, and nothing once it is set', async () => {
    const bare = await installDryRun();
    const notes = (output: string) => output.slice(output.indexOf('NOTES:'));
    expect(notes(bare.stdout)).toContain('NOT READY TO SERVE');
    expect(notes(bare.stdout)).toContain('secrets.databaseUrl (or postgresql.enabled=true)');
    const complete = await installDryRun({ valuesFiles: [await scenarioFile('defaults')] });
    expect(complete.ok).toBe(true);
    expect(notes(complete.stdout)).not.toContain('NOT READY');
  });
});

/**
 * The chart's monitoring (monitoring.*): ServiceMonitors that scrape what compose's Prometheus
 * scrapes, under the same job names and ports; the repository's rule groups embedded in a
 * PrometheusRule as they are; the Grafana dashboards in a ConfigMap the sidecar picks up; all of
 * it shipped through links into infra/ that `helm package` resolves. Off by default, except the
 * pods' scrape annotations.
 */
import { mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { ConfigMap, Service } from 'kubernetes-types/core/v1.js';
import type { NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chartArchiveFiles } from '../../src/helm/chart-archive.js';
import { CHART_DIRECTORY, REPOSITORY_ROOT } from '../../src/helm/chart-paths.js';
import { installDryRun, packageChart } from '../../src/helm/helm-cli.js';
import { mapSelector, selectorMatches } from '../../src/helm/label-selectors.js';
import { containersOf, podTemplates } from '../../src/helm/pod-templates.js';
import {
  objectNamed,
  renderDefaults,
  renderNamed,
  renderScenario,
  type RenderedScenario,
} from './rendered-scenarios.js';

const RULES_DIRECTORY = join(REPOSITORY_ROOT, 'infra/prometheus/rules');
const DASHBOARDS_DIRECTORY = join(REPOSITORY_ROOT, 'infra/grafana/dashboards');
const MONITORING_KINDS = ['ServiceMonitor', 'PrometheusRule'];

/** The files of a directory whose names end in `suffix`, sorted by name: [name, content]. */
async function filesOf(directory: string, suffix: string): Promise<[string, string][]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith(suffix)).sort();
  const contents = await Promise.all(names.map((name) => readFile(join(directory, name), 'utf8')));
  return names.map((name, index) => [name, contents[index] ?? '']);
}

/** Every file under the chart's files/, links followed, as paths relative to the chart. */
async function chartFiles(directory = join(CHART_DIRECTORY, 'files')): Promise<string[]> {
  const paths: string[] = [];
  for (const name of (await readdir(directory)).sort()) {
    const path = join(directory, name);
    if ((await stat(path)).isDirectory()) paths.push(...(await chartFiles(path)));
    else paths.push(path.slice(CHART_DIRECTORY.length + 1));
  }
  return paths;
}

/** The container port a Service port reaches (by its targetPort name) on the pods it selects. */
function scrapedPorts(render: RenderedScenario, service: Service, portName: string): number[] {
  const target = service.spec?.ports?.find((port) => port.name === portName)?.targetPort;
  return podTemplates(render.objects)
    .filter((pod) => selectorMatches(mapSelector(service.spec?.selector), pod.labels))
    .flatMap((pod) => containersOf(pod).flatMap((container) => container.ports ?? []))
    .filter((port) => port.name === target)
    .map((port) => port.containerPort);
}

/** Compose's scrape jobs: job name → the port its DNS discovery scrapes. */
async function composeScrapePorts(): Promise<Map<string, number>> {
  const config = parse(
    await readFile(join(REPOSITORY_ROOT, 'infra/prometheus/prometheus.yml'), 'utf8'),
  ) as { scrape_configs: { job_name: string; dns_sd_configs?: { port: number }[] }[] };
  return new Map(
    config.scrape_configs.flatMap((job) =>
      (job.dns_sd_configs ?? []).map((discovery) => [job.job_name, discovery.port] as const),
    ),
  );
}

const monitorsOf = (render: RenderedScenario) =>
  render.objects
    .filter(({ object }) => object.kind === 'ServiceMonitor')
    .map(({ object }) => object as unknown as IServiceMonitor);

describe('files the monitoring ships', () => {
  it.each([
    ['prometheus-rules', 'infra/prometheus/rules'],
    ['grafana-dashboards', 'infra/grafana/dashboards'],
  ])('files/%s links to the directory %s', async (name, target) => {
    const link = await readlink(join(CHART_DIRECTORY, 'files', name));
    expect(join(CHART_DIRECTORY, 'files', link)).toBe(join(REPOSITORY_ROOT, target));
  });

  it('helm package stores every file behind the links, rule files and dashboards included', async () => {
    const destination = await mkdtemp(join(tmpdir(), 'strata-chart-package-'));
    try {
      const packaged = await packageChart(destination);
      expect(packaged.stderr.replace(/^level=INFO .*\n/gm, '')).toBe('');
      expect(packaged.ok).toBe(true);
      const [archive] = await readdir(destination);
      const stored = await chartArchiveFiles(join(destination, archive ?? ''));
      const expected = await chartFiles();
      expect(expected).toEqual(
        expect.arrayContaining([
          ...(await filesOf(RULES_DIRECTORY, '.yml')).map(
            ([name]) => `files/prometheus-rules/${name}`,
          ),
          'files/nginx.conf',
        ]),
      );
      const contents = await Promise.all(
        expected.map((path) => readFile(join(CHART_DIRECTORY, path), 'utf8')),
      );
      expect(
        Object.fromEntries(
          expected.map((path) => [path, stored.get(`strata/${path}`)?.toString('utf8')]),
        ),
      ).toEqual(Object.fromEntries(expected.map((path, index) => [path, contents[index]])));
    } finally {
      await rm(destination, { recursive: true, force: true });
    }
  });
});

describe('monitoring objects', () => {
  it('are off by default, and the pods carry scrape annotations unless turned off', async () => {
    const defaults = await renderDefaults();
    const kinds = defaults.objects.map(({ object }) => object.kind);
    expect(kinds.filter((kind) => MONITORING_KINDS.includes(kind))).toEqual([]);
    expect(
      defaults.objects.some(({ object }) => object.metadata.name === 'strata-grafana-dashboards'),
    ).toBe(false);
    const scrapePorts = (render: RenderedScenario) =>
      Object.fromEntries(
        podTemplates(render.objects)
          .filter((pod) => ['strata-render', 'strata-data', 'strata-relay'].includes(pod.name))
          .map((pod) => [pod.name, pod.annotations['prometheus.io/port'] ?? null]),
      );
    expect(scrapePorts(defaults)).toEqual({
      'strata-render': '3000',
      'strata-data': '9464',
      'strata-relay': '3100',
    });
    const without = await renderNamed('no scrape annotations', {
      set: ['monitoring.scrapeAnnotations=false'],
    });
    expect(scrapePorts(without)).toEqual({
      'strata-render': null,
      'strata-data': null,
      'strata-relay': null,
    });
  });

  it('ServiceMonitors scrape the jobs and ports compose’s Prometheus scrapes, as the pods announce', async () => {
    const render = await renderScenario('monitoring');
    const compose = await composeScrapePorts();
    const pods = podTemplates(render.objects);
    const scraped = monitorsOf(render).map((monitor) => {
      const service = render.objects
        .map(({ object }) => object as unknown as Service)
        .find(
          (object) =>
            object.kind === 'Service' &&
            selectorMatches(monitor.spec.selector, object.metadata?.labels ?? {}),
        );
      if (!service) throw new Error(`${monitor.metadata?.name} selects no Service`);
      const job = service.metadata?.labels?.[monitor.spec.jobLabel ?? ''];
      const [endpoint] = monitor.spec.endpoints;
      const pod = pods.find((each) =>
        selectorMatches(mapSelector(service.spec?.selector), each.labels),
      );
      const ports = scrapedPorts(render, service, endpoint?.port ?? '');
      return {
        job,
        scrapes: [ports.map(String), endpoint?.path, endpoint?.interval],
        announced: [pod?.annotations['prometheus.io/port'], pod?.annotations['prometheus.io/path']],
        release: monitor.metadata?.labels?.['release'],
      };
    });
    // Compose's port for the job, and what the pod's own annotations announce.
    const expected = ['data', 'relay', 'render'].map((job) => {
      const port = String(compose.get(job));
      return {
        job,
        scrapes: [[port], '/metrics', '15s'],
        announced: [port, '/metrics'],
        release: 'kube-prometheus-stack',
      };
    });
    expect(scraped.sort((a, b) => String(a.job).localeCompare(String(b.job)))).toEqual(expected);
  });

  it('with NetworkPolicies, each scraped port is open to networkPolicy.metricsFrom', async () => {
    const render = await renderScenario('monitoring');
    const values = parse(
      await readFile(join(CHART_DIRECTORY, 'ci/monitoring-values.yaml'), 'utf8'),
    ) as { networkPolicy: { metricsFrom: unknown[] } };
    const reachable = monitorsOf(render).map((monitor) => {
      const component = monitor.spec.selector.matchLabels?.['app.kubernetes.io/component'] ?? '';
      const service = objectNamed<Service>(render, 'Service', `strata-${component}`);
      const port = monitor.spec.endpoints[0]?.port;
      const target = service.spec?.ports?.find((each) => each.name === port)?.targetPort;
      const policy = objectNamed<NetworkPolicy>(render, 'NetworkPolicy', `strata-${component}`);
      const fromScrapers = (policy.spec?.ingress ?? []).filter(
        (rule) => JSON.stringify(rule.from) === JSON.stringify(values.networkPolicy.metricsFrom),
      );
      const open = fromScrapers.flatMap((rule) => (rule.ports ?? []).map((each) => each.port));
      return [component, target, open.includes(target ?? '')];
    });
    expect(reachable.map(([, , open]) => open)).toEqual([true, true, true]);
    expect(reachable.map(([component, target]) => `${component}:${target}`).sort()).toEqual([
      'data:metrics',
      'relay:http',
      'render:http',
    ]);
  });

  it('the PrometheusRule holds every group of infra/prometheus/rules, as the files have them', async () => {
    const render = await renderScenario('monitoring');
    const rule = objectNamed<IPrometheusRule>(render, 'PrometheusRule', 'strata-prometheus-rules');
    const files = await filesOf(RULES_DIRECTORY, '.yml');
    const groups = files.flatMap(
      ([, content]) => (parse(content, { version: '1.1' }) as { groups: unknown[] }).groups,
    );
    expect(files.length).toBeGreaterThan(0);
    expect(rule.spec.groups).toEqual(groups);
    expect(rule.metadata?.labels?.['release']).toBe('kube-prometheus-stack');
  });

  it('the dashboards ConfigMap holds every infra/grafana/dashboards/*.json byte for byte', async () => {
    const render = await renderScenario('monitoring');
    const configMap = objectNamed<ConfigMap>(render, 'ConfigMap', 'strata-grafana-dashboards');
    const dashboards = await filesOf(DASHBOARDS_DIRECTORY, '.json');
    expect(configMap.data ?? {}).toEqual(Object.fromEntries(dashboards));
    // The API server refuses a ConfigMap over 1 MiB: past that the dashboards need several.
    const size = dashboards.reduce((total, [, content]) => total + Buffer.byteLength(content), 0);
    expect(size).toBeLessThan(1024 * 1024);
    expect(configMap.metadata?.labels?.['grafana_dashboard']).toBe('1');
    expect(configMap.metadata?.annotations).toEqual({ grafana_folder: 'Strata' });
  });

  it('says after an install when the NetworkPolicies keep Prometheus out', async () => {
    const values = { valuesFiles: [join(CHART_DIRECTORY, 'ci/monitoring-values.yaml')] };
    const closed = await installDryRun({ ...values, setJson: ['networkPolicy.metricsFrom=[]'] });
    const open = await installDryRun(values);
    expect([closed.ok, open.ok]).toEqual([true, true]);
    expect(closed.stdout).toContain('close to every scraper: set\nnetworkPolicy.metricsFrom');
    expect(open.stdout).not.toContain('networkPolicy.metricsFrom');
  });

  it('adds the selecting labels without changing the chart’s own', async () => {
    const render = await renderNamed('monitoring labels', {
      set: ['monitoring.serviceMonitors.enabled=true', 'monitoring.rules.enabled=true'],
      setJson: [
        'monitoring.serviceMonitors.labels={"app.kubernetes.io/component":"x","team":"web"}',
      ],
    });
    const monitor = objectNamed<IServiceMonitor>(render, 'ServiceMonitor', 'strata-render');
    expect(monitor.metadata?.labels).toMatchObject({
      'app.kubernetes.io/component': 'render',
      team: 'web',
    });
    const rule = objectNamed<IPrometheusRule>(render, 'PrometheusRule', 'strata-prometheus-rules');
    expect(rule.metadata?.labels?.['team']).toBeUndefined();
  });
});

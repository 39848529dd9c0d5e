/**
 * Prometheus in the stack (docker-compose.yml, profile `observability`), as docs/runbooks.md
 * promises: it finds every render, data and relay replica by name and scrapes them all, and the
 * gateway, Redis and PostgreSQL exporters, each reaching what it watches; it loads
 * every rule file and evaluates each rule without error, every series the rules read exists,
 * nothing fires on a healthy stack, and real faults fire their alerts: a data replica stopped
 * (it leaves DNS: StrataReplicasBelowFloor) and a render replica paused (still named, not
 * answering: StrataTargetDown). Every query of the Grafana dashboards (infra/grafana/dashboards)
 * runs without error on series that exist, and the overview's alert table lists the faults'
 * alerts. Queried from inside a render container, as nothing is published.
 *
 * The repository's prometheus.yml is used with its intervals shortened to 2 s (mounted through
 * an override), so the alerts' real `for: 1m` is what the test waits for; the rules are the
 * repository's, unchanged.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDashboards } from '../../infra/checks/src/grafana/dashboard-files.js';
import { dashboardQueries } from '../../infra/checks/src/grafana/dashboard-queries.js';
import { unknownSeriesNames } from '../../infra/checks/src/grafana/known-series.js';
import { loadRules } from '../../infra/checks/src/prometheus/prometheus-files.js';
import {
  externalSeriesNames,
  seriesNames,
} from '../../infra/checks/src/prometheus/series-names.js';
import { addressesOn, networksOf, securityOf } from './container-probes.js';
import { run, startComposeStack, type ComposeStack } from './compose-stack.js';
import {
  fastIntervalsOverride,
  prometheusApi,
  type Alert,
  type LoadedRule,
  type PrometheusApi,
  type Target,
  waitForScrapes,
} from './prometheus-api.js';
import { errorEnvelope } from './recorder.js';

const DSN = 'http://strata0observability0key@relay.invalid/12';
const INTERVAL = '2s';
/**
 * Replicas at the compose file's scale (the targets Prometheus must find), and the network
 * Prometheus reaches them on.
 */
const SCRAPED = {
  render: { replicas: 2, network: 'web' },
  data: { replicas: 2, network: 'web' },
  relay: { replicas: 2, network: 'edge' },
} as const;
/**
 * The exporters' jobs: one target each, named in prometheus.yml (not discovered), and the series
 * in which the exporter says it reached what it watches.
 */
const EXPORTED = {
  gateway: { target: 'gateway-exporter:9113', reached: 'nginx_up' },
  redis: { target: 'redis-exporter:9121', reached: 'redis_up' },
  postgres: { target: 'postgres-exporter:9187', reached: 'pg_up' },
} as const;
const PAGES = ['/bench/items', '/items', '/items/1', '/api/items'];

let stack: ComposeStack;
let overrideDir: string | undefined;
let prometheus: PrometheusApi;
let paused: string | undefined;

const allDashboardQueries = async () =>
  (await loadDashboards()).flatMap(({ dashboard }) => dashboardQueries(dashboard));

const targets = async () =>
  (
    await prometheus.get<{ activeTargets: Target[] }>('/api/v1/targets?state=active')
  ).activeTargets.filter((target) => target.labels.job in SCRAPED || target.labels.job in EXPORTED);
const firing = async () =>
  (await prometheus.get<{ alerts: Alert[] }>('/api/v1/alerts')).alerts.filter(
    (alert) => alert.state === 'firing',
  );

beforeAll(async () => {
  // The image is the official one where it can be pulled; a stand-in is built only where not.
  await run(['bash', 'infra/prometheus/build-standin-image.sh'], { timeoutMs: 600_000 });
  await run(['bash', 'infra/exporters/build-standin-images.sh'], { timeoutMs: 600_000 });
  const override = fastIntervalsOverride(INTERVAL, Object.keys(SCRAPED).length);
  overrideDir = override.folder;
  stack = await startComposeStack('observability', {
    env: { COMPOSE_PROFILES: 'observability', RELAY_DSNS: DSN },
    overrides: [override.file],
  });
  prometheus = prometheusApi(stack);
  // Pages twice over (the second round meets the segment cache), and a report the relay's
  // filters drop, so the histograms, the cache counters and the drop counter all have series.
  for (let round = 0; round < 2; round++)
    for (const path of PAGES) await fetch(`${stack.url}${path}`).then((r) => r.text());
  const noise = await fetch(`${stack.url}/monitoring`, {
    method: 'POST',
    body: errorEnvelope(DSN, 'Script error.', undefined).body,
  });
  if (noise.status !== 200) throw new Error(`the relay answered the report ${noise.status}`);
}, 600_000);

afterAll(async () => {
  if (paused) await run(['docker', 'unpause', paused]).catch(() => undefined);
  await stack?.down();
  if (overrideDir) rmSync(overrideDir, { recursive: true, force: true });
}, 120_000);

describe('Prometheus in the observability profile', () => {
  it('scrapes every render, data and relay replica, found by name, and the exporters', async () => {
    const all = await waitForScrapes(
      'every replica and exporter as an up target',
      async () => {
        const found = await targets();
        const up = found.filter((target) => target.health === 'up');
        const expected =
          Object.values(SCRAPED).reduce((sum, job) => sum + job.replicas, 0) +
          Object.keys(EXPORTED).length;
        return up.length === expected && found.length === expected ? found : undefined;
      },
      60_000,
    );
    for (const [job, { replicas, network }] of Object.entries(SCRAPED)) {
      // One target per running container of the service, at its address on the shared network.
      const addresses = await addressesOn(stack, network);
      const containers = await stack.containersOf(job);
      const expected = containers.map((id) => addresses.get(id)).sort();
      const found = all
        .filter((target) => target.labels.job === job)
        .map((target) => target.labels.instance.split(':')[0])
        .sort();
      expect({ job, found }).toEqual({ job, found: expected });
      expect(found).toHaveLength(replicas);
    }
    // Each exporter at the address prometheus.yml names, and each reaching what it watches.
    expect(
      all
        .filter((target) => target.labels.job in EXPORTED)
        .map((target) => `${target.labels.job} ${target.labels.instance}`)
        .sort(),
    ).toEqual(
      Object.entries(EXPORTED)
        .map(([job, { target }]) => `${job} ${target}`)
        .sort(),
    );
    for (const [job, { reached }] of Object.entries(EXPORTED)) {
      const query = encodeURIComponent(`${reached}{job="${job}"}`);
      const { result } = await prometheus.get<{ result: { value: [number, string] }[] }>(
        `/api/v1/query?query=${query}`,
      );
      expect({ reached, values: result.map((sample) => sample.value[1]) }).toEqual({
        reached,
        values: ['1'],
      });
    }
  });

  it('loads every rule file, and every rule evaluates without error', async () => {
    const repository = await loadRules();
    const groups = await waitForScrapes(
      'every rule evaluated once',
      async () => {
        const loaded = (
          await prometheus.get<{ groups: { name: string; rules: LoadedRule[] }[] }>('/api/v1/rules')
        ).groups;
        const rules = loaded.flatMap((group) => group.rules);
        return rules.every((rule) => rule.health !== 'unknown') ? loaded : undefined;
      },
      30_000,
    );
    expect(groups.map((group) => group.name).sort()).toEqual(
      [...new Set(repository.map((rule) => rule.group))].sort(),
    );
    const broken = groups
      .flatMap((group) => group.rules)
      .filter((rule) => rule.health !== 'ok')
      .map((rule) => `${rule.name}: ${rule.health} ${rule.lastError ?? ''}`);
    expect(broken).toEqual([]);
  });

  it('has every series the rules read, from the services’ scrapes', async () => {
    const loaded = (await prometheus.get<{ groups: { rules: LoadedRule[] }[] }>('/api/v1/rules'))
      .groups;
    const needed = externalSeriesNames(
      loaded
        .flatMap((group) => group.rules)
        .map((rule) => ({
          record: rule.type === 'recording' ? rule.name : undefined,
          expr: rule.query,
        })),
    );
    expect(needed.length).toBeGreaterThan(10);
    let missing: string[] = [];
    await waitForScrapes(
      'every series the rules read',
      async () => {
        const present = new Set(await prometheus.get<string[]>('/api/v1/label/__name__/values'));
        missing = needed.filter((name) => !present.has(name));
        return missing.length === 0 ? true : undefined;
      },
      30_000,
    ).catch(() => undefined);
    expect(missing).toEqual([]);
  });

  it('runs every Grafana dashboard query without error, on series that exist', async () => {
    const queries = await allDashboardQueries();
    expect(queries.length).toBeGreaterThan(100);
    const answers = await prometheus.queryAll(queries);
    const failed = queries.flatMap((query, index) =>
      answers[index]?.status === 'success'
        ? []
        : [`${query.dashboard} ${query.where}: ${answers[index]?.error} in ${query.promql}`],
    );
    expect(failed).toEqual([]);
    // Known: with samples, declared by a target (a labelled counter before its first event),
    // recorded by a loaded rule (an error ratio while nothing fails), or ALERTS.
    const [sampled, metadata, groups] = await Promise.all([
      prometheus.get<string[]>('/api/v1/label/__name__/values'),
      prometheus.get<Record<string, unknown>>('/api/v1/metadata'),
      prometheus.get<{ groups: { rules: LoadedRule[] }[] }>('/api/v1/rules'),
    ]);
    const recorded = groups.groups
      .flatMap((group) => group.rules)
      .flatMap((rule) => (rule.type === 'recording' ? [rule.name] : []));
    const needed = queries.flatMap((query) => seriesNames(query.promql));
    const known = { sampled, declared: Object.keys(metadata), recorded };
    expect(unknownSeriesNames(needed, known)).toEqual([]);
  });

  it('fires nothing on the healthy stack (the relay’s filtered drop included)', async () => {
    expect(await firing()).toEqual([]);
  });

  it('runs hardened, unpublished, on the networks of what it scrapes', async () => {
    const security = await securityOf(stack, 'prometheus');
    expect(security).toMatchObject({ readOnlyRoot: true, noNewPrivileges: true, capAdd: [] });
    expect(security.capDrop).toEqual(['ALL']);
    expect(security.memoryBytes).toBeGreaterThan(0);
    expect(security.uids).not.toContain('0');
    expect(await networksOf(stack, 'prometheus')).toEqual(['edge', 'web']);
    const id = await stack.containerOf('prometheus');
    const ports = JSON.parse(
      await run(['docker', 'inspect', '-f', '{{json .NetworkSettings.Ports}}', id]),
    ) as Record<string, unknown[] | null>;
    expect(Object.values(ports).flatMap((bindings) => bindings ?? [])).toEqual([]);
  });
});

describe('forced faults fire their alerts', () => {
  it('a stopped data replica and a paused render replica', async () => {
    const [, data] = await stack.containersOf('data');
    const [, render] = await stack.containersOf('render');
    if (!data || !render) throw new Error('expected two data and two render replicas');
    const pausedInstance = `${(await addressesOn(stack, 'web')).get(render)}:3000`;
    await run(['docker', 'stop', data]);
    await run(['docker', 'pause', render]);
    paused = render;
    let seen: Alert[] = [];
    await waitForScrapes(
      'StrataReplicasBelowFloor (data) and StrataTargetDown (render) firing',
      async () => {
        seen = await firing();
        const has = (name: string, job: string) =>
          seen.some((alert) => alert.labels['alertname'] === name && alert.labels['job'] === job);
        return has('StrataReplicasBelowFloor', 'data') && has('StrataTargetDown', 'render')
          ? true
          : undefined;
      },
      150_000,
    ).catch(() => undefined);
    const summary = seen
      .map((alert) =>
        [
          alert.labels['alertname'],
          alert.labels['job'],
          alert.labels['instance'] ?? '',
          alert.labels['severity'],
        ].join(' '),
      )
      .sort();
    // Exactly these: the stopped replica left DNS (no TargetDown for it), the paused one did not
    // (still counted, so no floor alert for render).
    expect(summary).toEqual([
      'StrataReplicasBelowFloor data  ticket',
      `StrataTargetDown render ${pausedInstance} ticket`,
    ]);
    // The overview dashboard's alert panels show the same two firing.
    const alertQueries = (await allDashboardQueries()).filter(
      (query) =>
        query.dashboard === 'strata-overview' && seriesNames(query.promql).includes('ALERTS'),
    );
    const shown = (await prometheus.queryAll(alertQueries))
      .flatMap((answer) => answer.data?.result ?? [])
      .filter((sample) => sample.metric['alertstate'] === 'firing')
      .map((sample) => `${sample.metric['alertname']} ${sample.metric['job']}`);
    expect(shown.sort()).toEqual(['StrataReplicasBelowFloor data', 'StrataTargetDown render']);
  }, 200_000);
});

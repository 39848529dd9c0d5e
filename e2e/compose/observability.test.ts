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
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDashboards } from '../../infra/checks/src/grafana/dashboard-files.js';
import {
  dashboardQueries,
  type DashboardQuery,
} from '../../infra/checks/src/grafana/dashboard-queries.js';
import { unknownSeriesNames } from '../../infra/checks/src/grafana/known-series.js';
import { loadRules } from '../../infra/checks/src/prometheus/prometheus-files.js';
import {
  externalSeriesNames,
  seriesNames,
} from '../../infra/checks/src/prometheus/series-names.js';
import { until } from '../harness/until.js';
import { networksOf, securityOf } from './container-probes.js';
import { ROOT, run, startComposeStack, type ComposeStack } from './compose-stack.js';
import { fetchInside } from './metrics-scrape.js';
import { errorEnvelope } from './recorder.js';

const DSN = 'http://strata0observability0key@relay.invalid/12';
const PROMETHEUS = 'http://prometheus:9090';
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
let overrideDir: string;
let paused: string | undefined;

/** prometheus.yml with every interval, and the scrape timeout (never above them), at `interval`. */
function withIntervals(config: string, interval: string): string {
  let replaced = 0;
  const text = config.replace(
    /^(\s*)(scrape_interval|scrape_timeout|evaluation_interval|refresh_interval):\s*\S+/gm,
    (_line, indent: string, key: string) => {
      replaced++;
      return `${indent}${key}: ${interval}`;
    },
  );
  // The three global settings and a refresh per discovered job, or the config changed shape.
  if (replaced < 3 + Object.keys(SCRAPED).length)
    throw new Error(`only ${replaced} intervals in prometheus.yml`);
  return text;
}

/** An override mounting the fast configuration over the repository's. */
function writeOverride(): string {
  overrideDir = mkdtempSync(join(tmpdir(), 'strata-prometheus-'));
  chmodSync(overrideDir, 0o755);
  const config = readFileSync(join(ROOT, 'infra/prometheus/prometheus.yml'), 'utf8');
  writeFileSync(join(overrideDir, 'prometheus.yml'), withIntervals(config, INTERVAL), {
    mode: 0o644,
  });
  const override = join(overrideDir, 'fast-intervals.yml');
  writeFileSync(
    override,
    [
      'services:',
      '  prometheus:',
      '    volumes:',
      `      - ${join(overrideDir, 'prometheus.yml')}:/etc/prometheus/prometheus.yml:ro`,
      '',
    ].join('\n'),
  );
  return override;
}

/** GETs a Prometheus API path from inside a render replica; returns its `data`. */
async function api<T>(path: string): Promise<T> {
  const render = await stack.containerOf('render');
  const body = JSON.parse(await fetchInside(render, `http://prometheus:9090${path}`)) as {
    status: string;
    data: T;
  };
  if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

interface Target {
  labels: { job: string; instance: string };
  health: string;
  lastError: string;
}
interface LoadedRule {
  name: string;
  query: string;
  type: 'recording' | 'alerting';
  health: string;
  lastError?: string;
}
interface Alert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

/** Prometheus' answer to one instant query. */
interface QueryAnswer {
  status: 'success' | 'error';
  error?: string;
  data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

// Runs in a service image; argv: Prometheus' URL, a JSON array of queries. Prints Prometheus'
// answers, in order: one container for every query rather than one `docker exec` each.
const QUERY_ALL = `
const [base, queries] = [process.argv[1], JSON.parse(process.argv[2])];
(async () => {
  const answers = [];
  for (const query of queries) {
    const response = await fetch(base + '/api/v1/query', {
      method: 'POST', body: new URLSearchParams({ query }), signal: AbortSignal.timeout(10000),
    });
    answers.push(await response.json());
  }
  process.stdout.write(JSON.stringify(answers));
})().catch((e) => { console.error(String(e)); process.exit(1); });
`;

/** Runs each query as an instant query (POSTed, as Grafana does), from inside a render replica. */
async function queryAll(queries: readonly DashboardQuery[]): Promise<QueryAnswer[]> {
  const render = await stack.containerOf('render');
  const promql = JSON.stringify(queries.map((query) => query.promql));
  const output = await run(['docker', 'exec', render, 'node', '-e', QUERY_ALL, PROMETHEUS, promql]);
  return JSON.parse(output) as QueryAnswer[];
}

const allDashboardQueries = async () =>
  (await loadDashboards()).flatMap(({ dashboard }) => dashboardQueries(dashboard));

const targets = async () =>
  (await api<{ activeTargets: Target[] }>('/api/v1/targets?state=active')).activeTargets.filter(
    (target) => target.labels.job in SCRAPED || target.labels.job in EXPORTED,
  );
const firing = async () =>
  (await api<{ alerts: Alert[] }>('/api/v1/alerts')).alerts.filter(
    (alert) => alert.state === 'firing',
  );

/** Waits for `probe`, about a scrape apart (polling faster only loads the machine). */
function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number) {
  return until(
    what,
    async () => {
      const value = await probe();
      if (value === undefined) await new Promise((resolve) => setTimeout(resolve, 1500));
      return value;
    },
    timeoutMs,
  );
}

/** The address of each container (by id) on one of the stack's networks. */
async function addressesOn(network: string): Promise<Map<string, string>> {
  const format = '{{range $id, $c := .Containers}}{{$id}}={{$c.IPv4Address}} {{end}}';
  const raw = await run([
    'docker',
    'network',
    'inspect',
    '-f',
    format,
    `${stack.project}_${network}`,
  ]);
  return new Map(
    raw
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((entry) => {
        const [id = '', cidr = ''] = entry.split('=');
        return [id, cidr.split('/')[0] ?? ''] as const;
      }),
  );
}

beforeAll(async () => {
  // The image is the official one where it can be pulled; a stand-in is built only where not.
  await run(['bash', 'infra/prometheus/build-standin-image.sh'], { timeoutMs: 600_000 });
  await run(['bash', 'infra/exporters/build-standin-images.sh'], { timeoutMs: 600_000 });
  stack = await startComposeStack('observability', {
    env: { COMPOSE_PROFILES: 'observability', RELAY_DSNS: DSN },
    overrides: [writeOverride()],
  });
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
    const all = await waitFor(
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
      const addresses = await addressesOn(network);
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
      const { result } = await api<{ result: { value: [number, string] }[] }>(
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
    const groups = await waitFor(
      'every rule evaluated once',
      async () => {
        const loaded = (
          await api<{ groups: { name: string; rules: LoadedRule[] }[] }>('/api/v1/rules')
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
    const loaded = (await api<{ groups: { rules: LoadedRule[] }[] }>('/api/v1/rules')).groups;
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
    await waitFor(
      'every series the rules read',
      async () => {
        const present = new Set(await api<string[]>('/api/v1/label/__name__/values'));
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
    const answers = await queryAll(queries);
    const failed = queries.flatMap((query, index) =>
      answers[index]?.status === 'success'
        ? []
        : [`${query.dashboard} ${query.where}: ${answers[index]?.error} in ${query.promql}`],
    );
    expect(failed).toEqual([]);
    // Known: with samples, declared by a target (a labelled counter before its first event),
    // recorded by a loaded rule (an error ratio while nothing fails), or ALERTS.
    const [sampled, metadata, groups] = await Promise.all([
      api<string[]>('/api/v1/label/__name__/values'),
      api<Record<string, unknown>>('/api/v1/metadata'),
      api<{ groups: { rules: LoadedRule[] }[] }>('/api/v1/rules'),
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
    const pausedInstance = `${(await addressesOn('web')).get(render)}:3000`;
    await run(['docker', 'stop', data]);
    await run(['docker', 'pause', render]);
    paused = render;
    let seen: Alert[] = [];
    await waitFor(
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
    const shown = (await queryAll(alertQueries))
      .flatMap((answer) => answer.data?.result ?? [])
      .filter((sample) => sample.metric['alertstate'] === 'firing')
      .map((sample) => `${sample.metric['alertname']} ${sample.metric['job']}`);
    expect(shown.sort()).toEqual(['StrataReplicasBelowFloor data', 'StrataTargetDown render']);
  }, 200_000);
});

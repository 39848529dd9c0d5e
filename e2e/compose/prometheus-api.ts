/**
 * Prometheus in a compose stack, from the test's side: the repository's prometheus.yml with its
 * intervals shortened (mounted through an override, so alerts' real `for:` is what a test waits
 * for), and its HTTP API queried from inside a render replica, as nothing is published.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DashboardQuery } from '../../infra/checks/src/grafana/dashboard-queries.js';
import { until } from '../harness/until.js';
import { ROOT, run, type ComposeStack } from './compose-stack.js';
import { fetchInside } from './metrics-scrape.js';

const PROMETHEUS = 'http://prometheus:9090';

/**
 * prometheus.yml with every interval, and the scrape timeout (never above them), at `interval`;
 * `discoveredJobs` each have a refresh interval, or the config changed shape.
 */
export function withIntervals(config: string, interval: string, discoveredJobs: number): string {
  let replaced = 0;
  const text = config.replace(
    /^(\s*)(scrape_interval|scrape_timeout|evaluation_interval|refresh_interval):\s*\S+/gm,
    (_line, indent: string, key: string) => {
      replaced++;
      return `${indent}${key}: ${interval}`;
    },
  );
  if (replaced < 3 + discoveredJobs)
    throw new Error(`only ${replaced} intervals in prometheus.yml`);
  return text;
}

/** A compose override mounting the fast configuration over the repository's, in a new folder. */
export function fastIntervalsOverride(
  interval: string,
  discoveredJobs: number,
): { file: string; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'strata-prometheus-'));
  chmodSync(folder, 0o755);
  const config = readFileSync(join(ROOT, 'infra/prometheus/prometheus.yml'), 'utf8');
  writeFileSync(join(folder, 'prometheus.yml'), withIntervals(config, interval, discoveredJobs), {
    mode: 0o644,
  });
  const file = join(folder, 'fast-intervals.yml');
  writeFileSync(
    file,
    [
      'services:',
      '  prometheus:',
      '    volumes:',
      `      - ${join(folder, 'prometheus.yml')}:/etc/prometheus/prometheus.yml:ro`,
      '',
    ].join('\n'),
  );
  return { file, folder };
}

export interface Target {
  labels: { job: string; instance: string };
  health: string;
  lastError: string;
}
export interface LoadedRule {
  name: string;
  query: string;
  type: 'recording' | 'alerting';
  health: string;
  lastError?: string;
}
export interface Alert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

/** Prometheus' answer to one instant query. */
export interface QueryAnswer {
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

/** The stack's Prometheus API, reached from inside a render replica. */
export interface PrometheusApi {
  /** GETs an API path; returns its `data`. */
  get<T>(path: string): Promise<T>;
  /** Runs each query as an instant query (POSTed, as Grafana does). */
  queryAll(queries: readonly DashboardQuery[]): Promise<QueryAnswer[]>;
}

export function prometheusApi(stack: ComposeStack): PrometheusApi {
  return {
    async get<T>(path: string): Promise<T> {
      const render = await stack.containerOf('render');
      const body = JSON.parse(await fetchInside(render, `${PROMETHEUS}${path}`)) as {
        status: string;
        data: T;
      };
      if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
      return body.data;
    },
    async queryAll(queries) {
      const render = await stack.containerOf('render');
      const promql = JSON.stringify(queries.map((query) => query.promql));
      const output = await run([
        'docker',
        'exec',
        render,
        'node',
        '-e',
        QUERY_ALL,
        PROMETHEUS,
        promql,
      ]);
      return JSON.parse(output) as QueryAnswer[];
    },
  };
}

/** Waits for `probe`, about a scrape apart (polling faster only loads the machine). */
export function waitForScrapes<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
) {
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

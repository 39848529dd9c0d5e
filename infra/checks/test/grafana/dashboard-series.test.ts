/**
 * What the dashboards read: recorded series only under names the rules record, raw series only
 * from the services' families, thresholds that repeat the SLOs and alert bounds the rules write
 * down; and the check the compose test runs against a live Prometheus (known-series.ts). Whether
 * the services really export each name is asserted by e2e/compose/observability.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadDashboards } from '../../src/grafana/dashboard-files.js';
import type { Dashboard } from '../../src/grafana/dashboard-model.js';
import { dashboardQueries } from '../../src/grafana/dashboard-queries.js';
import { unknownSeriesNames } from '../../src/grafana/known-series.js';
import {
  alertBound,
  burnRateFactors,
  panelsReading,
  recordedConstant,
  thresholdValues,
} from '../../src/grafana/slo-thresholds.js';
import { loadRules } from '../../src/prometheus/prometheus-files.js';
import { seriesNames } from '../../src/prometheus/series-names.js';

const dashboards = await loadDashboards();
const rules = await loadRules();
const byUid = (uid: string): Dashboard => {
  const found = dashboards.find(({ dashboard }) => dashboard.uid === uid)?.dashboard;
  if (!found) throw new Error(`no dashboard ${uid}`);
  return found;
};
const names = [
  ...new Set(
    dashboards.flatMap(({ dashboard }) =>
      dashboardQueries(dashboard).flatMap((query) => seriesNames(query.promql)),
    ),
  ),
].sort();

describe('the series the dashboards read', () => {
  it('recorded ones are recorded by infra/prometheus/rules', () => {
    const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
    const used = names.filter((name) => name.includes(':'));
    expect(used.length).toBeGreaterThan(15);
    expect(used.filter((name) => !recorded.has(name))).toEqual([]);
  });

  it('raw ones belong to what render, data and relay export, up, and the ALERTS series', () => {
    const families =
      /^(up|ALERTS|http_request_duration_seconds_|grpc_server_handling_seconds_|nodejs_|process_|relay_|strata_segment_cache_)/;
    const raw = names.filter((name) => !name.includes(':'));
    expect(raw.filter((name) => !families.test(name))).toEqual([]);
  });
});

describe('thresholds repeat the numbers the rules write down', () => {
  const overview = byUid('strata-overview');

  it('availability: the objective of slo.yml', () => {
    const objective = recordedConstant(rules, 'strata:page_availability:objective_ratio');
    expect(objective).toBe(0.999);
    const panels = panelsReading(overview, 'strata:page_errors:ratio_rate3d').filter(
      (panel) => panel.type === 'stat',
    );
    expect(panels.map(thresholdValues)).toEqual([[objective]]);
  });

  it('burn rate: the factors the budget alerts fire at, and no other', () => {
    const factors = burnRateFactors(rules, 'strata:page_availability:objective_ratio');
    expect(factors).toEqual([1, 6, 14.4]);
    const panels = panelsReading(overview, 'strata:page_availability:objective_ratio');
    expect(panels.length).toBeGreaterThanOrEqual(3);
    for (const panel of panels) {
      expect(thresholdValues(panel).length).toBeGreaterThan(0);
      expect(thresholdValues(panel).filter((value) => !factors.includes(value))).toEqual([]);
    }
  });

  it('page p99: the latency objective, wherever it is drawn', () => {
    const bound = recordedConstant(rules, 'strata:page_duration_p99:objective_seconds');
    expect(bound).toBe(1);
    const panels = panelsReading(overview, 'strata:page_duration_seconds:p99_rate5m');
    expect(panels).toHaveLength(2);
    for (const panel of panels) expect(thresholdValues(panel)).toEqual([bound]);
  });

  it.each([
    ['instance:relay_spool:usage_ratio', 'StrataRelaySpoolFilling', 0.8],
    ['relay_spool_oldest_age_seconds', 'StrataRelayDeliveryStalled', 900],
  ])('%s: the bound of %s', (series, alert, expected) => {
    const bound = alertBound(rules, alert);
    expect(bound).toBe(expected);
    const panels = panelsReading(byUid('strata-relay'), series);
    expect(panels).toHaveLength(1);
    expect(panels.map(thresholdValues)).toEqual([[bound]]);
  });
});

describe('the helpers', () => {
  const rule = (fields: { record?: string; alert?: string; expr: string }) => ({
    file: 'x.yml',
    group: 'g',
    labels: {},
    annotations: {},
    ...fields,
  });

  it('read constants, bounds and burn factors, and refuse other shapes', () => {
    const budget = '(1 - o:ratio)';
    const sample = [
      rule({ record: 'o:ratio', expr: 'vector(0.995)' }),
      rule({ record: 'o:odd', expr: 'vector(1) * 2' }),
      rule({ alert: 'Fast', expr: `a > 14.4 * ${budget} and b > 2 * ${budget}` }),
      rule({ alert: 'Slow', expr: `c > ${budget}` }),
      rule({ alert: 'Bound', expr: 'd >= 0.75' }),
    ];
    expect(recordedConstant(sample, 'o:ratio')).toBe(0.995);
    expect(() => recordedConstant(sample, 'o:odd')).toThrow(/vector/);
    expect(burnRateFactors(sample, 'o:ratio')).toEqual([1, 2, 14.4]);
    expect(alertBound(sample, 'Bound')).toBe(0.75);
    expect(() => alertBound(sample, 'Fast')).toThrow(/comparison/);
  });
});

describe('unknownSeriesNames', () => {
  const known = {
    sampled: ['up', 'a_total'],
    declared: ['h_seconds', 'c_total', 'o'],
    recorded: ['job:a:rate5m'],
  };

  it('knows sampled, recorded and declared names, histogram parts and ALERTS', () => {
    expect(
      unknownSeriesNames(
        ['up', 'a_total', 'job:a:rate5m', 'h_seconds_bucket', 'h_seconds_count', 'c_total'],
        known,
      ),
    ).toEqual([]);
    expect(unknownSeriesNames(['ALERTS', 'o_total'], known)).toEqual([]);
  });

  it('names the rest once each, sorted', () => {
    expect(
      unknownSeriesNames(['h_second_bucket', 'job:b:rate5m', 'zz', 'h_second_bucket'], known),
    ).toEqual(['h_second_bucket', 'job:b:rate5m', 'zz']);
  });
});

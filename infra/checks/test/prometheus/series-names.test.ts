/**
 * The metric names a PromQL expression selects (series-names.ts), on the shapes the rules use,
 * and the names the repository's rules need from the services. Whether the services really
 * export them is asserted against a live scrape by e2e/compose/observability.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/prometheus/prometheus-files.js';
import { externalSeriesNames, seriesNames } from '../../src/prometheus/series-names.js';

describe('seriesNames', () => {
  it.each([
    ['up == 0', ['up']],
    ['rate(http_requests_total{job="render", route=~"/a.*"}[5m])', ['http_requests_total']],
    ['sum by (job, route) (rate(a_count[5m])) / on (job) group_left (route) b', ['a_count', 'b']],
    ['sum(rate(a[1h])) by (le) or vector(0)', ['a']],
    ['histogram_quantile(0.99, sum without (instance) (rate(a_bucket[5m])))', ['a_bucket']],
    ['a offset 10m unless ignoring (reason) b @ start()', ['a', 'b']],
    [
      'count by (job) (up{job=~"x|y"}) or 0 * strata:replicas:floor',
      ['strata:replicas:floor', 'up'],
    ],
    ['max_over_time(rate(a[5m])[30m:1m]) > bool 1e-3', ['a']],
    ['{__name__="by_name", job="on"}', ['by_name']],
    ['label_replace(a, "dst", \'sum\', "src", "(.*)") AND b # and a comment c', ['a', 'b']],
    ['vector(1) + time() > Inf', []],
  ])('%s', (expression, names) => {
    expect(seriesNames(expression)).toEqual(names);
  });

  it('refuses text it cannot read rather than guess', () => {
    expect(() => seriesNames('sum by (job (a)')).toThrow(/parentheses/);
  });
});

describe('externalSeriesNames', () => {
  it('counts what a rule records as defined, also when a later rule reads it', () => {
    const rules = [
      { record: 'job:a:rate5m', expr: 'sum by (job) (rate(a_total[5m]))' },
      { expr: 'job:a:rate5m > 1 and up == 1' },
    ];
    expect(externalSeriesNames(rules)).toEqual(['a_total', 'up']);
  });

  it('the repository’s rules read only what the services and exporters export, and up', async () => {
    const names = externalSeriesNames(await loadRules());
    expect(names).toContain('up');
    // Every name belongs to one of the services' families (their code and docs list them), or
    // to the gateway's, Redis's or PostgreSQL's exporter.
    const families =
      /^(up|http_request_duration_seconds_|grpc_(server|client)_handling_seconds_|nodejs_|process_|relay_|strata_segment_cache_|nginx_|redis_|pg_)/;
    expect(names.filter((name) => !families.test(name))).toEqual([]);
  });
});

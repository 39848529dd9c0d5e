/**
 * Listing a dashboard's queries (panels, rows' collapsed panels, query variables) and making
 * them plain PromQL, on hand-made dashboards; and on the repository's, that every query is
 * found and every variable it uses is defined.
 */
import { describe, expect, it } from 'vitest';
import { loadDashboards } from '../../src/grafana/dashboard-files.js';
import type { Dashboard, TemplateVariable } from '../../src/grafana/dashboard-model.js';
import {
  dashboardQueries,
  substituteVariables,
  variablePromQL,
} from '../../src/grafana/dashboard-queries.js';

const variables: TemplateVariable[] = [
  { name: 'datasource', type: 'datasource', query: 'prometheus' },
  { name: 'job', type: 'query', allValue: null },
  { name: 'route', type: 'query', allValue: '/items.*' },
];

describe('substituteVariables', () => {
  it.each([
    ['rate(a[$__rate_interval])', 'rate(a[5m])'],
    ['a{job=~"$job"}', 'a{job=~".+"}'],
    ['a{job=~"${job}", route=~"${route:regex}"}', 'a{job=~".+", route=~"/items.*"}'],
    ['a{job=~"[[job]]"} offset $__range', 'a{job=~".+"} offset 1h'],
    ['label_replace(a, "x", "$1", "job", "(.*)")', 'label_replace(a, "x", "$1", "job", "(.*)")'],
  ])('%s', (expr, promql) => {
    expect(substituteVariables(expr, variables)).toBe(promql);
  });

  it('refuses a variable nobody defined, and the data source variable in a query', () => {
    expect(() => substituteVariables('a{job=~"$jobs"}', variables)).toThrow(
      'unknown variable $jobs',
    );
    expect(() => substituteVariables('a{x="${datasource}"}', variables)).toThrow(/data source/);
  });
});

describe('variablePromQL', () => {
  it.each([
    ['label_values(up{job=~"a,b"}, instance)', 'up{job=~"a,b"}'],
    ['query_result(topk(3, rate(a[5m])))', 'topk(3, rate(a[5m]))'],
    ['label_values(job)', undefined],
    ['label_names()', undefined],
    ['metrics(relay_.*)', undefined],
    ['sum by (job) (up)', 'sum by (job) (up)'],
  ])('%s', (query, promql) => {
    expect(variablePromQL(query)).toBe(promql);
  });
});

describe('dashboardQueries', () => {
  const dashboard: Dashboard = {
    uid: 'd',
    templating: {
      list: [
        ...variables,
        {
          name: 'instance',
          type: 'query',
          query: { query: 'label_values(up{job=~"$job"}, instance)' },
        },
        { name: 'le', type: 'query', query: 'label_values(le)' },
        { name: 'window', type: 'custom', query: '5m,1h' },
      ],
    },
    panels: [
      {
        id: 1,
        title: 'Top',
        targets: [{ refId: 'A', expr: 'rate(a[$__rate_interval])' }, { refId: 'B' }],
      },
      {
        id: 2,
        type: 'row',
        collapsed: true,
        panels: [{ id: 3, title: 'Inside', targets: [{ refId: 'A', expr: 'b{job=~"$job"}' }] }],
      },
    ],
  };

  it('finds panels’, collapsed rows’ and query variables’ queries, and substitutes them', () => {
    expect(dashboardQueries(dashboard)).toEqual([
      {
        dashboard: 'd',
        where: 'panel 1 "Top" A',
        expr: 'rate(a[$__rate_interval])',
        promql: 'rate(a[5m])',
      },
      {
        dashboard: 'd',
        where: 'panel 3 "Inside" A',
        expr: 'b{job=~"$job"}',
        promql: 'b{job=~".+"}',
      },
      {
        dashboard: 'd',
        where: 'variable instance',
        expr: 'up{job=~"$job"}',
        promql: 'up{job=~".+"}',
      },
    ]);
  });

  it('says where a query with an unknown variable is', () => {
    const broken = {
      ...dashboard,
      panels: [{ id: 7, title: 'T', targets: [{ refId: 'C', expr: '$nope' }] }],
    };
    expect(() => dashboardQueries(broken)).toThrow('d panel 7 "T" C: unknown variable $nope');
  });
});

describe('the repository’s dashboards', () => {
  it('are the five dashboards, each with queries whose variables are all defined', async () => {
    const dashboards = await loadDashboards();
    expect(dashboards.map(({ dashboard }) => dashboard.uid)).toEqual([
      'strata-cache',
      'strata-data',
      'strata-overview',
      'strata-relay',
      'strata-render',
    ]);
    for (const { dashboard } of dashboards) {
      const queries = dashboardQueries(dashboard);
      expect(queries.length).toBeGreaterThan(5);
      expect(queries.filter((query) => query.promql.includes('$'))).toEqual([]);
    }
  });
});

/**
 * Every dashboard query is PromQL that parses, judged offline by promtool (promql-parse.ts);
 * broken queries are shown to be reported by where they are, not swallowed.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadDashboards } from '../../src/grafana/dashboard-files.js';
import { dashboardQueries } from '../../src/grafana/dashboard-queries.js';
import { promqlParseProblems, queriesAsRuleFile } from '../../src/grafana/promql-parse.js';

describe('the repository’s dashboard queries', () => {
  it('all parse', async () => {
    const queries = (await loadDashboards()).flatMap(({ dashboard }) =>
      dashboardQueries(dashboard).map((query) => ({
        where: `${query.dashboard} ${query.where}`,
        promql: query.promql,
      })),
    );
    expect(queries.length).toBeGreaterThan(100);
    expect(await promqlParseProblems(queries)).toEqual([]);
  });
});

describe('promqlParseProblems', () => {
  it('stands each query for a recording rule, text YAML would read otherwise kept whole', () => {
    const promql = 'a{b="c: d"} # e\n  or\n  - f';
    expect(parse(queriesAsRuleFile([{ where: 'w', promql }]))).toEqual({
      groups: [
        { name: 'dashboard-queries', rules: [{ record: 'dashboard_query_0', expr: promql }] },
      ],
    });
  });

  it('names each query that does not parse, and what promtool says', async () => {
    const problems = await promqlParseProblems([
      { where: 'fine', promql: 'sum by (job) (rate(a_total[5m]))' },
      { where: 'unclosed', promql: 'sum(rate(a_total[5m])' },
      { where: 'unknown function', promql: 'rated(a_total[5m])' },
      { where: 'left variable', promql: 'rate(a_total[$__rate_interval])' },
    ]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^unclosed: could not parse expression: .*unclosed left parenthesis/,
    );
    expect(problems[1]).toMatch(/^unknown function: could not parse expression: .*rated/);
    expect(problems[2]).toMatch(/^left variable: could not parse expression: /);
    expect(problems[2]).toContain('in rate(a_total[$__rate_interval])');
  });
});

/**
 * Parses PromQL offline with promtool. Debian's promtool (2.42) has no `promql` subcommand, but
 * `check rules` parses every rule's expression without a server: each query becomes a recording
 * rule of a throwaway rule file, and promtool's complaints are mapped back to the queries.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { checkRules } from '../prometheus/promtool.js';

/** A query to parse, and how a problem with it should name it. */
export interface QueryToParse {
  readonly where: string;
  readonly promql: string;
}

const RECORD_PREFIX = 'dashboard_query_';

/** The rule file standing for `queries`: rule i records `dashboard_query_<i>`. */
export function queriesAsRuleFile(queries: readonly QueryToParse[]): string {
  const rules = queries.map((query, index) => ({
    record: `${RECORD_PREFIX}${index}`,
    expr: query.promql,
  }));
  return stringify({ groups: [{ name: 'dashboard-queries', rules }] });
}

/**
 * What promtool says about each query that does not parse, one line per query named by its
 * `where` (empty: all parse). Output promtool gives that names no query is returned whole.
 */
export async function promqlParseProblems(queries: readonly QueryToParse[]): Promise<string[]> {
  const directory = await mkdtemp(join(tmpdir(), 'strata-dashboard-queries-'));
  try {
    const file = join(directory, 'dashboard-queries.yml');
    await writeFile(file, queriesAsRuleFile(queries));
    const result = await checkRules([file]);
    if (result.ok) return [];
    const named = [...result.output.matchAll(/"dashboard_query_(\d+)": (.*)$/gm)].map(
      ([, index, complaint]) =>
        `${queries[Number(index)]?.where}: ${complaint} in ${queries[Number(index)]?.promql}`,
    );
    return named.length > 0 ? named : [result.output];
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

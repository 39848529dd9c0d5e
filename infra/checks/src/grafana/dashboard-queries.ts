/**
 * Every PromQL query of a dashboard (panels' `targets[].expr`, the panels collapsed rows hold,
 * and query variables), made plain PromQL: Grafana's template variables replaced by what an
 * instant query may stand on its own with. Pure: takes the parsed dashboard.
 */
import {
  allPanels,
  variableQueryText,
  type Dashboard,
  type TemplateVariable,
} from './dashboard-model.js';

/** One query, where it is, and the PromQL it stands for. */
export interface DashboardQuery {
  /** The dashboard's uid. */
  readonly dashboard: string;
  /** `panel 3 "Title" A` or `variable instance`. */
  readonly where: string;
  /** As written in the dashboard. */
  readonly expr: string;
  /** Plain PromQL: every variable substituted. */
  readonly promql: string;
}

/**
 * Grafana's own variables, at values a check can run with: `$__rate_interval` as 5m (four
 * 15 s scrape intervals would give 1m; 5m is what the recording rules use), the range an hour.
 */
const BUILT_INS: Readonly<Record<string, string>> = {
  __rate_interval: '5m',
  __rate_interval_ms: '300000',
  __interval: '1m',
  __interval_ms: '60000',
  __range: '1h',
  __range_s: '3600',
  __range_ms: '3600000',
};

/** What a dashboard variable stands for when nothing is selected: "All". */
const ALL = '.+';

/** Grafana's three spellings: `$name`, `${name}` (with `.path` or `:format`), `[[name]]`. */
const VARIABLE = /\$(\w+)|\$\{(\w+)(?:\.[^:}]+)?(?::[^}]+)?\}|\[\[(\w+)(?::\w+)?\]\]/g;

/**
 * `expr` with every variable replaced: Grafana's built-ins by BUILT_INS, the dashboard's by
 * their `allValue` (else `.+`). `$1` (a regex group in label_replace) is left alone, as Grafana
 * leaves it. Throws on a variable neither defines, or on a data source variable in a query.
 */
export function substituteVariables(expr: string, variables: readonly TemplateVariable[]): string {
  const byName = new Map(variables.map((variable) => [variable.name ?? '', variable]));
  return expr.replace(VARIABLE, (text, plain?: string, braced?: string, bracketed?: string) => {
    const name = plain ?? braced ?? bracketed ?? '';
    if (/^\d/.test(name)) return text;
    const builtIn = BUILT_INS[name];
    if (builtIn !== undefined) return builtIn;
    const variable = byName.get(name);
    if (!variable) throw new Error(`unknown variable ${text}`);
    if (variable.type === 'datasource') throw new Error(`data source variable ${text} in a query`);
    return variable.allValue || ALL;
  });
}

/**
 * The PromQL inside a query variable's query: `label_values(<expr>, label)` and
 * `query_result(<expr>)` hold one; `label_values(label)`, `label_names()` and `metrics(re)` are
 * Grafana's own and hold none (undefined). Anything else is PromQL itself.
 */
export function variablePromQL(query: string): string | undefined {
  const text = query.trim();
  const labelValues = /^label_values\((.*),\s*[\w.]+\s*\)$/s.exec(text);
  if (labelValues) return labelValues[1]?.trim();
  const result = /^query_result\((.*)\)$/s.exec(text);
  if (result) return result[1]?.trim();
  if (/^(label_values|label_names|metrics)\(/.test(text)) return undefined;
  return text;
}

/** Every query of `dashboard`, panels first (in order), then its query variables. */
export function dashboardQueries(dashboard: Dashboard): DashboardQuery[] {
  const variables = dashboard.templating?.list ?? [];
  const uid = dashboard.uid ?? '(no uid)';
  const query = (where: string, expr: string): DashboardQuery => {
    try {
      return { dashboard: uid, where, expr, promql: substituteVariables(expr, variables) };
    } catch (error) {
      throw new Error(`${uid} ${where}: ${(error as Error).message}`, { cause: error });
    }
  };
  const panels = allPanels(dashboard).flatMap((panel) =>
    (panel.targets ?? []).flatMap((target) =>
      target.expr
        ? [query(`panel ${panel.id} "${panel.title ?? ''}" ${target.refId ?? ''}`, target.expr)]
        : [],
    ),
  );
  const fromVariables = variables.flatMap((variable) => {
    const text = variable.type === 'query' ? variableQueryText(variable) : undefined;
    const promql = text === undefined ? undefined : variablePromQL(text);
    return promql ? [query(`variable ${variable.name ?? ''}`, promql)] : [];
  });
  return [...panels, ...fromVariables];
}

/**
 * Whether dashboards are ones Grafana provisions and shows as meant: a uid and title unique
 * across them, the schema version they are written for, a Prometheus data source variable that
 * every panel and query variable goes through (so any data source uid works), panels with
 * unique ids, a place on the grid, a unit and queries, and multi-value variables matched with
 * `=~`. Pure: takes the parsed dashboards; one sentence per problem.
 */
import {
  allPanels,
  type DashboardFile,
  type DatasourceRef,
  type Panel,
} from './dashboard-model.js';

/** Grafana 12's classic dashboard schema; Grafana 11 loads it unmigrated, 12 and later as is. */
export const SCHEMA_VERSION = 41;
export const DATASOURCE_VARIABLE = 'datasource';
const DATASOURCE_REF = { type: 'prometheus', uid: `\${${DATASOURCE_VARIABLE}}` };
const GRID_COLUMNS = 24;

const isVariableRef = (ref: DatasourceRef | string | null | undefined) =>
  typeof ref === 'object' && ref?.type === DATASOURCE_REF.type && ref.uid === DATASOURCE_REF.uid;

/** A label matched against a variable with `=` or `!=`: breaks once several values are chosen. */
const EXACT_MATCH_ON_VARIABLE = /(?:!=|[^=!~]=)\s*"(?:\$|\[\[)/;

function panelProblems(where: string, panel: Panel): string[] {
  const problems: string[] = [];
  const grid = panel.gridPos;
  const cells = [grid?.h, grid?.w, grid?.x, grid?.y];
  if (!cells.every((value) => Number.isInteger(value) && (value ?? -1) >= 0))
    problems.push(`${where}: gridPos needs whole h, w, x and y`);
  else if ((grid?.x ?? 0) + (grid?.w ?? 0) > GRID_COLUMNS)
    problems.push(`${where}: gridPos runs past column ${GRID_COLUMNS}`);
  if (!panel.title) problems.push(`${where}: no title`);
  if (panel.type === 'row') {
    if (!panel.collapsed && (panel.panels ?? []).length > 0)
      problems.push(`${where}: an open row holds panels (only a collapsed row does)`);
    return problems;
  }
  if (!isVariableRef(panel.datasource))
    problems.push(`${where}: datasource is not the $${DATASOURCE_VARIABLE} variable`);
  if (!panel.fieldConfig?.defaults?.unit) problems.push(`${where}: no unit`);
  const targets = panel.targets ?? [];
  if (targets.length === 0) problems.push(`${where}: no query`);
  const refIds = targets.map((target) => target.refId);
  if (new Set(refIds).size !== refIds.length || refIds.some((refId) => !refId))
    problems.push(`${where}: refIds missing or repeated`);
  for (const target of targets) {
    const at = `${where} ${target.refId ?? ''}`;
    if (!target.expr) problems.push(`${at}: no expr`);
    else if (EXACT_MATCH_ON_VARIABLE.test(target.expr))
      problems.push(`${at}: a variable matched with = or != (use =~ or !~)`);
    if (target.datasource !== undefined && !isVariableRef(target.datasource))
      problems.push(`${at}: datasource is not the $${DATASOURCE_VARIABLE} variable`);
  }
  return problems;
}

/** What is wrong with one dashboard. */
function dashboardProblems({ file, dashboard }: DashboardFile): string[] {
  const problems: string[] = [];
  if (!dashboard.uid || !/^[a-z0-9-]{1,40}$/.test(dashboard.uid))
    problems.push(`${file}: uid ${dashboard.uid ?? '(none)'} is not 1-40 of [a-z0-9-]`);
  if (!dashboard.title) problems.push(`${file}: no title`);
  if (dashboard.schemaVersion !== SCHEMA_VERSION)
    problems.push(`${file}: schemaVersion ${dashboard.schemaVersion} is not ${SCHEMA_VERSION}`);
  const variables = dashboard.templating?.list ?? [];
  const source = variables.find((variable) => variable.name === DATASOURCE_VARIABLE);
  if (source?.type !== 'datasource' || source.query !== 'prometheus')
    problems.push(`${file}: no datasource variable ${DATASOURCE_VARIABLE} of type prometheus`);
  for (const variable of variables)
    if (variable.type === 'query' && !isVariableRef(variable.datasource))
      problems.push(
        `${file}: variable ${variable.name}'s datasource is not $${DATASOURCE_VARIABLE}`,
      );
  const ids = new Set<number>();
  for (const panel of allPanels(dashboard)) {
    const where = `${file}: panel ${panel.id ?? '(no id)'} "${panel.title ?? ''}"`;
    if (!Number.isInteger(panel.id)) problems.push(`${where}: no id`);
    else if (ids.has(panel.id ?? 0)) problems.push(`${where}: id repeated`);
    ids.add(panel.id ?? 0);
    problems.push(...panelProblems(where, panel));
  }
  return problems;
}

/** What is wrong with `dashboards`, each on its own and together (empty: nothing). */
export function dashboardShapeProblems(dashboards: readonly DashboardFile[]): string[] {
  const problems = dashboards.flatMap(dashboardProblems);
  for (const key of ['uid', 'title'] as const) {
    const seen = new Map<string, string>();
    for (const { file, dashboard } of dashboards) {
      const value = dashboard[key];
      if (!value) continue;
      const first = seen.get(value);
      if (first) problems.push(`${file}: ${key} ${value} is also ${first}'s`);
      else seen.set(value, file);
    }
  }
  return problems;
}

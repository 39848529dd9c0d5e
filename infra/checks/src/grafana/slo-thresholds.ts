/**
 * The numbers a dashboard's thresholds must repeat, read where they are written once (the
 * objectives slo.yml records, the bounds the alerts compare with), and the thresholds a panel
 * draws, so a test can hold the two together. Pure: takes parsed rules and dashboards.
 */
import type { Rule } from '../prometheus/rule-files.js';
import { seriesNames } from '../prometheus/series-names.js';
import { allPanels, type Dashboard, type Panel } from './dashboard-model.js';
import { substituteVariables } from './dashboard-queries.js';

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;

/** The constant recorded by the rule `record: <record>, expr: vector(N)`. */
export function recordedConstant(rules: readonly Rule[], record: string): number {
  const expr = rules.find((rule) => rule.record === record)?.expr ?? '';
  const match = new RegExp(String.raw`^\s*vector\(\s*${NUMBER}\s*\)\s*$`).exec(expr);
  if (!match) throw new Error(`no rule records ${record} as vector(<number>)`);
  return Number(match[1]);
}

/** The bound the alert `name` compares with at the end of its expression (`… > 0.8`). */
export function alertBound(rules: readonly Rule[], name: string): number {
  const expr = rules.find((rule) => rule.alert === name)?.expr ?? '';
  const match = new RegExp(String.raw`[<>]=?\s*${NUMBER}\s*$`).exec(expr);
  if (!match) throw new Error(`alert ${name} ends in no comparison with a number`);
  return Number(match[1]);
}

/**
 * The burn rates the alerts on `objective` fire at: `14.4 * (1 - objective)` is 14.4, a bare
 * `> (1 - objective)` is 1. Sorted, each once.
 */
export function burnRateFactors(rules: readonly Rule[], objective: string): number[] {
  const factors = new Set<number>();
  const budget = String.raw`\(\s*1\s*-\s*${objective.replaceAll(':', '\\:')}\s*\)`;
  for (const rule of rules) {
    if (!rule.alert) continue;
    for (const [, factor] of rule.expr.matchAll(new RegExp(`${NUMBER}\\s*\\*\\s*${budget}`, 'g')))
      factors.add(Number(factor));
    if (new RegExp(`>\\s*${budget}`).test(rule.expr)) factors.add(1);
  }
  return [...factors].sort((a, b) => a - b);
}

/** The values of a panel's threshold steps, the base step (value null) left out. */
export function thresholdValues(panel: Panel): number[] {
  const steps = panel.fieldConfig?.defaults?.thresholds?.steps ?? [];
  return steps.flatMap((step) => (typeof step.value === 'number' ? [step.value] : []));
}

/** The panels of `dashboard` with a query that reads the series `name`. */
export function panelsReading(dashboard: Dashboard, name: string): Panel[] {
  const variables = dashboard.templating?.list ?? [];
  return allPanels(dashboard).filter((panel) =>
    (panel.targets ?? []).some(
      (target) =>
        target.expr !== undefined &&
        seriesNames(substituteVariables(target.expr, variables)).includes(name),
    ),
  );
}

/**
 * Prometheus rule files (`groups: [{ name, rules: [...] }]`) read into typed rules, and
 * promtool unit-test files into the alert cases they hold. Pure: takes the YAML text;
 * promtool itself judges whether the files are valid (promtool.ts), this only reads them.
 */
import { parse } from 'yaml';

/** One recording or alerting rule, with the file it came from. */
export interface Rule {
  readonly file: string;
  readonly group: string;
  /** Set for a recording rule. */
  readonly record?: string | undefined;
  /** Set for an alerting rule. */
  readonly alert?: string | undefined;
  readonly expr: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/** An alerting rule. */
export type AlertRule = Rule & { readonly alert: string };

interface RawRule {
  record?: string;
  alert?: string;
  expr?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Every rule of a rule file, in file order. */
export function parseRuleFile(file: string, text: string): Rule[] {
  const document = parse(text) as { groups?: { name: string; rules?: RawRule[] }[] } | null;
  return (document?.groups ?? []).flatMap((group) =>
    (group.rules ?? []).map((rule) => ({
      file,
      group: group.name,
      record: rule.record,
      alert: rule.alert,
      expr: String(rule.expr ?? ''),
      labels: rule.labels ?? {},
      annotations: rule.annotations ?? {},
    })),
  );
}

/** The alerting rules among `rules`. */
export function alertsOf(rules: readonly Rule[]): AlertRule[] {
  return rules.filter((rule): rule is AlertRule => rule.alert !== undefined);
}

/** One `alert_rule_test` case: at `evalTime`, alert `alertname` fires `expected` times. */
export interface AlertCase {
  readonly file: string;
  readonly test: string;
  readonly alertname: string;
  readonly evalTime: string;
  /** How many alerts the case expects (0: it must stay quiet). */
  readonly expected: number;
}

interface RawTestFile {
  tests?: {
    name?: string;
    alert_rule_test?: { alertname: string; eval_time: string; exp_alerts?: unknown[] }[];
  }[];
}

/** Every alert case of a promtool test file. */
export function parseAlertCases(file: string, text: string): AlertCase[] {
  const document = parse(text) as RawTestFile | null;
  return (document?.tests ?? []).flatMap((test) =>
    (test.alert_rule_test ?? []).map((alertCase) => ({
      file,
      test: test.name ?? '',
      alertname: alertCase.alertname,
      evalTime: alertCase.eval_time,
      expected: alertCase.exp_alerts?.length ?? 0,
    })),
  );
}

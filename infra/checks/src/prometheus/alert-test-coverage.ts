/**
 * Whether the promtool unit tests hold every alert to both halves of its contract: a case where
 * it fires on the bad series and one where it stays quiet on the good ones. Pure.
 */
import type { AlertCase } from './rule-files.js';

/** What is missing, one sentence per problem (empty: every alert is covered both ways). */
export function alertCoverageProblems(
  alertNames: readonly string[],
  cases: readonly AlertCase[],
): string[] {
  const known = new Set(alertNames);
  const problems: string[] = [];
  for (const name of [...known].sort()) {
    const own = cases.filter((alertCase) => alertCase.alertname === name);
    if (!own.some((alertCase) => alertCase.expected > 0))
      problems.push(`${name}: no test case where it fires`);
    if (!own.some((alertCase) => alertCase.expected === 0))
      problems.push(`${name}: no test case where it stays quiet`);
  }
  // A case naming an alert no rule defines passes vacuously when it expects nothing.
  for (const alertCase of cases)
    if (!known.has(alertCase.alertname))
      problems.push(`${alertCase.file} (${alertCase.test}): no alert ${alertCase.alertname}`);
  return problems;
}

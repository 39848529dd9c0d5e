/**
 * Every alert is actionable and tested: a severity of page or ticket, a summary, a runbook_url
 * that lands on its own section of docs/runbooks.md, and promtool cases where it fires and where
 * it stays quiet. The pure checks are shown to catch each fault on broken inputs.
 */
import { describe, expect, it } from 'vitest';
import { alertCoverageProblems } from '../../src/prometheus/alert-test-coverage.js';
import {
  loadAlertCases,
  loadRules,
  readRunbooks,
  RUNBOOK_PATH,
} from '../../src/prometheus/prometheus-files.js';
import { alertsOf, type AlertRule } from '../../src/prometheus/rule-files.js';
import { headingAnchors, runbookProblems } from '../../src/prometheus/runbook-links.js';

const alerts = alertsOf(await loadRules());

/** An alert as the rule files would give it. */
function alert(name: string, overrides: Partial<AlertRule> = {}): AlertRule {
  return {
    file: 'rules/x.yml',
    group: 'x',
    alert: name,
    expr: 'up == 0',
    labels: { severity: 'page' },
    annotations: { summary: 's', runbook_url: `docs/runbooks.md#${name.toLowerCase()}` },
    ...overrides,
  };
}

describe('the repository’s alerts', () => {
  it('are the ones the runbooks and tests are written for', () => {
    expect(alerts.map((rule) => rule.alert).sort()).toEqual([
      'StrataExporterDown',
      'StrataGatewayDown',
      'StrataPageErrorBudgetBurn',
      'StrataPageErrorBudgetSlowBurn',
      'StrataPageLatencyHigh',
      'StrataPostgresDown',
      'StrataRedisDown',
      'StrataRelayDeliveryStalled',
      'StrataRelayDroppingEnvelopes',
      'StrataRelaySpoolFilling',
      'StrataReplicasBelowFloor',
      'StrataSegmentCacheDown',
      'StrataServiceDown',
      'StrataTargetDown',
    ]);
  });

  it('each has a severity, a summary and a runbook section, and each section an alert', async () => {
    expect(runbookProblems(alerts, RUNBOOK_PATH, await readRunbooks())).toEqual([]);
  });

  it('each has a promtool case where it fires and one where it stays quiet', async () => {
    const names = alerts.map((rule) => rule.alert);
    expect(alertCoverageProblems(names, await loadAlertCases())).toEqual([]);
  });
});

describe('runbookProblems', () => {
  const markdown = '# Runbooks\n\n### StrataA\n\n```sh\n# StrataB\n```\n\n### StrataOrphan\n';

  it('finds GitHub’s anchors, not comments in code blocks', () => {
    expect(headingAnchors('## Start: `up -d` (v1)\n```\n# not\n```\n### StrataA')).toEqual(
      new Set(['start-up--d-v1', 'strataa']),
    );
    expect(headingAnchors(markdown).has('stratab')).toBe(false);
  });

  it('names each fault', () => {
    const problems = runbookProblems(
      [
        alert('StrataA'),
        alert('StrataB'),
        alert('StrataC', { labels: { severity: 'critical' } }),
        alert('StrataD', {
          annotations: { summary: 's', runbook_url: 'https://example.invalid/#d' },
        }),
        alert('StrataE', { annotations: { runbook_url: 'docs/runbooks.md#strataa' } }),
      ],
      'docs/runbooks.md',
      markdown,
    );
    expect(problems).toEqual([
      'StrataB (rules/x.yml): docs/runbooks.md has no section #stratab',
      'StrataC (rules/x.yml): severity critical is not one of page,ticket',
      'StrataC (rules/x.yml): docs/runbooks.md has no section #stratac',
      'StrataD (rules/x.yml): runbook_url https://example.invalid/#d is not docs/runbooks.md#<section>',
      'StrataE (rules/x.yml): no summary',
      'docs/runbooks.md: section StrataOrphan is no alert',
    ]);
  });
});

describe('alertCoverageProblems', () => {
  const at = (alertname: string, expected: number) => ({
    file: 'tests/x.yml',
    test: 't',
    alertname,
    evalTime: '5m',
    expected,
  });

  it('wants a firing and a quiet case for each alert, and no case for an unknown one', () => {
    expect(
      alertCoverageProblems(
        ['Both', 'OnlyFires', 'OnlyQuiet', 'Untested'],
        [at('Both', 1), at('Both', 0), at('OnlyFires', 2), at('OnlyQuiet', 0), at('Typo', 0)],
      ),
    ).toEqual([
      'OnlyFires: no test case where it stays quiet',
      'OnlyQuiet: no test case where it fires',
      'Untested: no test case where it fires',
      'Untested: no test case where it stays quiet',
      'tests/x.yml (t): no alert Typo',
    ]);
  });
});

/**
 * promtool on the Prometheus files: the configuration and every rule file are valid, and every
 * unit test in infra/prometheus/tests passes. A failure shows promtool's own output; the broken
 * files below show that a failure is reported, not swallowed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE, ruleFiles, ruleTestFiles } from '../../src/prometheus/prometheus-files.js';
import { checkConfig, checkRules, testRules } from '../../src/prometheus/promtool.js';

/** Passes when promtool succeeded; a failure's diff shows everything promtool printed. */
function expectSuccess(result: { ok: boolean; output: string }): void {
  expect(result).toEqual({ ok: true, output: expect.stringContaining('SUCCESS') });
}

describe('promtool', () => {
  it('check config: infra/prometheus/prometheus.yml', async () => {
    const result = await checkConfig(CONFIG_FILE);
    expectSuccess(result);
    expect(result.output).toContain('valid prometheus config file syntax');
  });

  it.each([
    ['check rules', 'rules', ruleFiles, checkRules],
    ['test rules', 'tests', ruleTestFiles, testRules],
  ] as const)(
    '%s: every file in infra/prometheus/%s',
    async (_command, _directory, list, check) => {
      const files = await list();
      expect(files.length).toBeGreaterThan(0);
      const result = await check(files);
      expectSuccess(result);
      expect(result.output.match(/SUCCESS/g)).toHaveLength(files.length);
    },
  );
});

describe('promtool reports failures', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-promtool-'));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('a rule whose expression does not parse', async () => {
    const file = join(directory, 'broken-rules.yml');
    await writeFile(
      file,
      'groups:\n  - name: broken\n    rules:\n      - record: a:b\n        expr: sum(\n',
    );
    const result = await checkRules([file]);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/parse error/i);
  });

  it('a unit test whose expected alert does not fire', async () => {
    const rules = join(directory, 'quiet-rules.yml');
    await writeFile(
      rules,
      'groups:\n  - name: quiet\n    rules:\n      - alert: Never\n        expr: up == 2\n',
    );
    const test = join(directory, 'expects-alert.yml');
    await writeFile(
      test,
      [
        'rule_files: [quiet-rules.yml]',
        'tests:',
        '  - input_series: [{ series: up, values: 1x5 }]',
        '    alert_rule_test:',
        '      - { eval_time: 2m, alertname: Never, exp_alerts: [{ exp_labels: {} }] }',
        '',
      ].join('\n'),
    );
    const result = await testRules([test]);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('FAILED');
    expect(result.output).toContain('alertname: Never');
  });

  it('a promtool that is not there', async () => {
    const saved = process.env['PROMTOOL'];
    process.env['PROMTOOL'] = join(directory, 'no-such-promtool');
    try {
      const result = await checkConfig(CONFIG_FILE);
      expect(result.ok).toBe(false);
      expect(result.output).toContain('ENOENT');
    } finally {
      if (saved === undefined) delete process.env['PROMTOOL'];
      else process.env['PROMTOOL'] = saved;
    }
  });
});

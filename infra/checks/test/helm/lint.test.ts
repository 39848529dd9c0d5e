/**
 * `helm lint --strict` (warnings fail) on the chart with its default values and with each CI
 * scenario's values, and the values schema refusing a key the chart does not know.
 */
import { describe, expect, it } from 'vitest';
import { ciScenarios } from '../../src/helm/chart-paths.js';
import { lintChart, templateChart } from '../../src/helm/helm-cli.js';

const scenarios = await ciScenarios();

describe('helm lint --strict', () => {
  it('passes with the default values', async () => {
    const result = await lintChart();
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    expect(result.ok).toBe(true);
  });

  it('has the scenarios the checks promise', () => {
    expect(scenarios.map((scenario) => scenario.name)).toEqual(
      expect.arrayContaining([
        'defaults',
        'bundled',
        'network-policies',
        'no-autoscaling',
        'existing-secret',
        'ingress',
        'httproute',
        'redis-sentinel',
        'monitoring',
      ]),
    );
  });

  it.each(scenarios)('passes with ci/$name-values.yaml', async ({ valuesFile }) => {
    const result = await lintChart({ valuesFiles: [valuesFile] });
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    expect(result.ok).toBe(true);
  });
});

describe('values.schema.json', () => {
  it('refuses an unknown key, in lint and in template', async () => {
    const lint = await lintChart({ set: ['render.replica=3'] });
    expect(lint.ok).toBe(false);
    expect(lint.stdout + lint.stderr).toContain("additional properties 'replica' not allowed");
    const template = await templateChart({ set: ['gateway.service.typo=1'] });
    expect(template.ok).toBe(false);
    expect(template.stderr).toContain("additional properties 'typo' not allowed");
  });

  it('refuses a malformed digest and an Ingress without hosts', async () => {
    const digest = await templateChart({ set: ['render.image.digest=latest'] });
    expect(digest.ok).toBe(false);
    expect(digest.stderr).toContain('/render/image/digest');
    const ingress = await templateChart({ set: ['ingress.enabled=true'] });
    expect(ingress.ok).toBe(false);
    expect(ingress.stderr).toContain('/ingress/hosts');
  });
});

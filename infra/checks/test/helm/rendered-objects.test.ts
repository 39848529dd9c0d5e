/**
 * Every render (the default values and each CI scenario) validated as a cluster would see it:
 * only allow-listed API versions, each object valid against the Kubernetes API schema, no field
 * the API types do not declare, and every chart rule kept.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSchemaProblems } from '../../src/helm/api-schema.js';
import type { RenderedObject } from '../../src/helm/manifests.js';
import { ruleViolations } from '../../src/helm/rules/chart-rules.js';
import { unknownFieldProblems } from '../../src/helm/unknown-fields.js';
import { renderEverything, type RenderedScenario } from './rendered-scenarios.js';

let renders: RenderedScenario[];

beforeAll(async () => {
  renders = await renderEverything();
});

/** Each object's source names its scenario, so one compiler run can report for all of them. */
function everyObject(): RenderedObject[] {
  return renders.flatMap(({ name, objects }) =>
    objects.map((rendered) => ({ ...rendered, source: `${name}: ${rendered.source}` })),
  );
}

describe('rendered objects', () => {
  it('renders every scenario', () => {
    expect(renders.length).toBeGreaterThanOrEqual(8);
    const counts = renders.map((render) => ({
      scenario: render.name,
      large: render.objects.length > 10,
    }));
    expect(counts).toEqual(renders.map((render) => ({ scenario: render.name, large: true })));
  });

  it('uses allow-listed API versions only and each object is valid against the API schema', () => {
    expect(apiSchemaProblems(everyObject())).toEqual([]);
  });

  it('declares no field the Kubernetes API types do not know', async () => {
    expect(await unknownFieldProblems(everyObject())).toEqual([]);
  });

  it('keeps every chart rule', () => {
    const violations = renders.flatMap(({ name, objects }) =>
      ruleViolations(objects).map((violation) => `${name}: ${violation}`),
    );
    expect(violations).toEqual([]);
  });
});

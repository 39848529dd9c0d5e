/**
 * Each CI scenario's rendered output equals its golden example,
 * infra/helm/examples/<scenario>/rendered.yaml. After an intended chart change, rewrite them
 * with `UPDATE_GOLDEN=1 npx vitest run --project infra infra/checks/test/helm/golden.test.ts`
 * and review the diff.
 */
import { describe, expect, it } from 'vitest';
import { ciScenarios } from '../../src/helm/chart-paths.js';
import { compareWithGolden, updatingGoldens } from '../../src/helm/golden.js';
import { renderScenario } from './rendered-scenarios.js';

const scenarios = await ciScenarios();

describe('golden examples', () => {
  it.each(scenarios)('$name renders as examples/$name/rendered.yaml', async (scenario) => {
    const { rendered } = await renderScenario(scenario.name);
    const outcome = await compareWithGolden(scenario.goldenFile, rendered);
    // On a difference the diff of the two texts says what changed; UPDATE_GOLDEN=1 accepts it.
    const golden = outcome.status === 'differs' ? outcome.expected : rendered;
    expect(rendered).toBe(golden);
    expect(outcome.status).toBe(updatingGoldens() ? 'updated' : 'matches');
  });
});

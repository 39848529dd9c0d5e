/**
 * Where the chart, its CI values files and the rendered examples live in the repository.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const CHART_DIRECTORY = join(REPOSITORY_ROOT, 'infra/helm/strata');
export const EXAMPLES_DIRECTORY = join(REPOSITORY_ROOT, 'infra/helm/examples');

const VALUES_SUFFIX = '-values.yaml';

/** One CI scenario: `ci/<name>-values.yaml`, rendered into `examples/<name>/rendered.yaml`. */
export interface Scenario {
  readonly name: string;
  readonly valuesFile: string;
  readonly goldenFile: string;
}

/** Every `ci/*-values.yaml` of the chart, sorted by name. */
export async function ciScenarios(): Promise<Scenario[]> {
  const files = await readdir(join(CHART_DIRECTORY, 'ci'));
  return files
    .filter((file) => file.endsWith(VALUES_SUFFIX))
    .sort()
    .map((file) => {
      const name = file.slice(0, -VALUES_SUFFIX.length);
      return {
        name,
        valuesFile: join(CHART_DIRECTORY, 'ci', file),
        goldenFile: join(EXAMPLES_DIRECTORY, name, 'rendered.yaml'),
      };
    });
}

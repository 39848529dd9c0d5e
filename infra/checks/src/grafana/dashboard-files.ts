/**
 * Where the Grafana dashboards and provisioning files live in the repository, and those files
 * read (judging them is dashboard-shape.ts's).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Dashboard, DashboardFile } from './dashboard-model.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const GRAFANA_DIRECTORY = join(ROOT, 'infra/grafana');
export const DASHBOARDS_DIRECTORY = join(GRAFANA_DIRECTORY, 'dashboards');
export const DASHBOARD_PROVIDER_FILE = join(
  GRAFANA_DIRECTORY,
  'provisioning/dashboards/strata.yml',
);
export const DATASOURCE_FILE = join(GRAFANA_DIRECTORY, 'provisioning/datasources/prometheus.yml');

/** Every `*.json` of the dashboards directory, parsed, sorted by file name. */
export async function loadDashboards(): Promise<DashboardFile[]> {
  const names = (await readdir(DASHBOARDS_DIRECTORY)).filter((name) => name.endsWith('.json'));
  return Promise.all(
    names.sort().map(async (name) => {
      const file = join(DASHBOARDS_DIRECTORY, name);
      return { file, dashboard: JSON.parse(await readFile(file, 'utf8')) as Dashboard };
    }),
  );
}

/** A provisioning file, parsed. */
export async function readProvisioning(file: string): Promise<unknown> {
  return parse(await readFile(file, 'utf8')) as unknown;
}

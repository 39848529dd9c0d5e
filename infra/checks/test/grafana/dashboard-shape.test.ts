/**
 * The dashboards are ones Grafana provisions and shows as meant (dashboard-shape.ts), the
 * provisioning files load them from the folder they are mounted at and name the stack's
 * Prometheus; the check is shown to catch each fault on broken dashboards.
 */
import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_PROVIDER_FILE,
  DATASOURCE_FILE,
  loadDashboards,
  readProvisioning,
} from '../../src/grafana/dashboard-files.js';
import type { DashboardFile, Panel } from '../../src/grafana/dashboard-model.js';
import { dashboardShapeProblems, SCHEMA_VERSION } from '../../src/grafana/dashboard-shape.js';

const dashboards = await loadDashboards();

describe('the repository’s dashboards', () => {
  it('have the shape Grafana provisions', () => {
    expect(dashboards).toHaveLength(5);
    expect(dashboardShapeProblems(dashboards)).toEqual([]);
  });

  it('each is laid out in rows, only the last of which may start collapsed', () => {
    for (const { dashboard } of dashboards) {
      const rows = (dashboard.panels ?? []).filter((panel) => panel.type === 'row');
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(rows.slice(0, -1).filter((row) => row.collapsed)).toEqual([]);
    }
  });
});

describe('the provisioning files', () => {
  it('load the dashboards from the folder the docs mount them at', async () => {
    expect(await readProvisioning(DASHBOARD_PROVIDER_FILE)).toMatchObject({
      apiVersion: 1,
      providers: [
        {
          type: 'file',
          folder: 'Strata',
          allowUiUpdates: false,
          options: { path: '/var/lib/grafana/dashboards/strata' },
        },
      ],
    });
  });

  it('name the stack’s Prometheus under uid prometheus, its scrape interval the step', async () => {
    expect(await readProvisioning(DATASOURCE_FILE)).toMatchObject({
      apiVersion: 1,
      datasources: [
        {
          type: 'prometheus',
          uid: 'prometheus',
          access: 'proxy',
          url: 'http://prometheus:9090',
          jsonData: { timeInterval: '15s' },
        },
      ],
    });
  });
});

describe('dashboardShapeProblems', () => {
  const ref = { type: 'prometheus', uid: '${datasource}' };
  const panel = (id: number, overrides: Partial<Panel> = {}): Panel => ({
    id,
    type: 'timeseries',
    title: `P${id}`,
    datasource: ref,
    gridPos: { h: 8, w: 12, x: 0, y: id * 8 },
    fieldConfig: { defaults: { unit: 's' } },
    targets: [{ refId: 'A', expr: 'up', datasource: ref }],
    ...overrides,
  });
  const file = (name: string, panels: Panel[], overrides = {}): DashboardFile => ({
    file: name,
    dashboard: {
      uid: name,
      title: name,
      schemaVersion: SCHEMA_VERSION,
      templating: {
        list: [
          { name: 'datasource', type: 'datasource', query: 'prometheus' },
          { name: 'job', type: 'query', datasource: ref, query: 'label_values(up, job)' },
        ],
      },
      panels,
      ...overrides,
    },
  });

  it('passes a well-formed dashboard', () => {
    expect(dashboardShapeProblems([file('a', [panel(1), panel(2)])])).toEqual([]);
  });

  it('names each fault of a panel, nested ones included', () => {
    const problems = dashboardShapeProblems([
      file('a', [
        panel(1, { datasource: { type: 'prometheus', uid: 'prometheus' } }),
        panel(2, { gridPos: { h: 8, w: 12, x: 18, y: 0 }, fieldConfig: {} }),
        {
          id: 3,
          type: 'row',
          title: 'R',
          collapsed: true,
          gridPos: { h: 1, w: 24, x: 0, y: 0 },
          panels: [panel(1), panel(4, { gridPos: { h: 8 }, targets: [] })],
        },
        {
          id: 5,
          type: 'row',
          title: 'Open',
          gridPos: { h: 1, w: 24, x: 0, y: 1 },
          panels: [panel(6)],
        },
        panel(7, {
          targets: [
            { refId: 'A', expr: 'a{job="$job"}' },
            { refId: 'A', expr: 'a{job!="${job}"}', datasource: 'Prometheus' },
            { refId: 'B', expr: '' },
          ],
        }),
      ]),
    ]);
    expect(problems).toEqual([
      'a: panel 1 "P1": datasource is not the $datasource variable',
      'a: panel 2 "P2": gridPos runs past column 24',
      'a: panel 2 "P2": no unit',
      'a: panel 1 "P1": id repeated',
      'a: panel 4 "P4": gridPos needs whole h, w, x and y',
      'a: panel 4 "P4": no query',
      'a: panel 5 "Open": an open row holds panels (only a collapsed row does)',
      'a: panel 7 "P7": refIds missing or repeated',
      'a: panel 7 "P7" A: a variable matched with = or != (use =~ or !~)',
      'a: panel 7 "P7" A: a variable matched with = or != (use =~ or !~)',
      'a: panel 7 "P7" A: datasource is not the $datasource variable',
      'a: panel 7 "P7" B: no expr',
    ]);
  });

  it('names each fault of a dashboard, and a uid or title used twice', () => {
    const problems = dashboardShapeProblems([
      file('a', [panel(1)]),
      file('b', [panel(1)], { uid: 'a', schemaVersion: 39, templating: { list: [] } }),
      file('c', [panel(1)], {
        uid: 'Not A Uid',
        title: 'a',
        templating: {
          list: [
            { name: 'datasource', type: 'datasource', query: 'loki' },
            { name: 'job', type: 'query', datasource: { uid: 'prometheus' } },
          ],
        },
      }),
    ]);
    expect(problems).toEqual([
      'b: schemaVersion 39 is not 41',
      'b: no datasource variable datasource of type prometheus',
      'c: uid Not A Uid is not 1-40 of [a-z0-9-]',
      'c: no datasource variable datasource of type prometheus',
      "c: variable job's datasource is not $datasource",
      "b: uid a is also a's",
      "c: title a is also a's",
    ]);
  });
});

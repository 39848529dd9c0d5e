/**
 * The parts of Grafana's dashboard JSON model (the classic model Grafana 11 and 12 export and
 * provision) that the checks read. Every field is optional: the files are parsed JSON, and
 * dashboard-shape.ts says which ones must be there.
 */

/** A reference to a data source: the checks want `{ type: 'prometheus', uid: '${datasource}' }`. */
export interface DatasourceRef {
  readonly type?: string;
  readonly uid?: string;
}

/** One query of a panel. */
export interface Target {
  readonly refId?: string;
  readonly expr?: string;
  readonly datasource?: DatasourceRef | string | null;
}

/** A threshold step: `value` null is the base colour, below every other step. */
export interface ThresholdStep {
  readonly color?: string;
  readonly value?: number | null;
}

export interface GridPos {
  readonly h?: number;
  readonly w?: number;
  readonly x?: number;
  readonly y?: number;
}

/** A panel, or a row (`type: 'row'`), whose collapsed panels sit in its own `panels`. */
export interface Panel {
  readonly id?: number;
  readonly type?: string;
  readonly title?: string;
  readonly collapsed?: boolean;
  readonly gridPos?: GridPos;
  readonly datasource?: DatasourceRef | string | null;
  readonly targets?: readonly Target[];
  readonly panels?: readonly Panel[];
  readonly fieldConfig?: {
    readonly defaults?: {
      readonly unit?: string;
      readonly thresholds?: { readonly steps?: readonly ThresholdStep[] };
    };
  };
}

/**
 * A template variable. A query variable's `query` is a string in older exports and
 * `{ query, refId }` in Grafana 11 and 12.
 */
export interface TemplateVariable {
  readonly name?: string;
  readonly type?: string;
  readonly query?: string | { readonly query?: string } | null;
  readonly datasource?: DatasourceRef | string | null;
  /** What "All" stands for in a query: a regex, so the dashboards match variables with `=~`. */
  readonly allValue?: string | null;
}

export interface Dashboard {
  readonly uid?: string;
  readonly title?: string;
  readonly schemaVersion?: number;
  readonly panels?: readonly Panel[];
  readonly templating?: { readonly list?: readonly TemplateVariable[] };
}

/** A dashboard and the file it was read from. */
export interface DashboardFile {
  readonly file: string;
  readonly dashboard: Dashboard;
}

/** Every panel of `dashboard`, rows and the panels collapsed rows hold included, in order. */
export function allPanels(dashboard: Dashboard): Panel[] {
  return (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]);
}

/** The text of a query variable's query, whichever form it is stored in. */
export function variableQueryText(variable: TemplateVariable): string | undefined {
  const query = variable.query;
  if (typeof query === 'string') return query;
  return query?.query;
}

/**
 * The renders the tests share: the chart's default values and every ci/*-values.yaml scenario,
 * each rendered once per test file.
 */
import { ciScenarios } from '../../src/helm/chart-paths.js';
import { renderChart, type ValuesOptions } from '../../src/helm/helm-cli.js';
import { parseManifests, type RenderedObject } from '../../src/helm/manifests.js';

export interface RenderedScenario {
  readonly name: string;
  readonly rendered: string;
  readonly objects: readonly RenderedObject[];
}

const renders = new Map<string, Promise<RenderedScenario>>();

/** Renders with `options` once; later calls with the same name share the result. */
export function renderNamed(name: string, options: ValuesOptions): Promise<RenderedScenario> {
  let render = renders.get(name);
  if (!render) {
    render = renderChart(options).then((rendered) => ({
      name,
      rendered,
      objects: parseManifests(rendered),
    }));
    renders.set(name, render);
  }
  return render;
}

/** The chart's own values.yaml, nothing else. */
export function renderDefaults(): Promise<RenderedScenario> {
  return renderNamed('(default values)', {});
}

/** One ci/<name>-values.yaml scenario. */
export async function renderScenario(name: string): Promise<RenderedScenario> {
  const scenario = (await ciScenarios()).find((each) => each.name === name);
  if (!scenario) throw new Error(`no ci/${name}-values.yaml`);
  return renderNamed(name, { valuesFiles: [scenario.valuesFile] });
}

/** The default values and every scenario. */
export async function renderEverything(): Promise<RenderedScenario[]> {
  const scenarios = await ciScenarios();
  return Promise.all([
    renderDefaults(),
    ...scenarios.map((scenario) => renderScenario(scenario.name)),
  ]);
}

/** The objects of a render of this kind, by name. */
export function objectNamed<T>(render: RenderedScenario, kind: string, name: string): T {
  const found = render.objects.find(
    ({ object }) => object.kind === kind && object.metadata.name === name,
  );
  if (!found) throw new Error(`${render.name} renders no ${kind}/${name}`);
  return found.object as unknown as T;
}

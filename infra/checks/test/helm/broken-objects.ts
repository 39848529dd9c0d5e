/**
 * Deliberately broken objects for the tests that prove a check can fail: a copy of a rendered
 * object, typed as its kind, changed by the test. Fields the types forbid (an unknown field, a
 * wrong type) go in with Object.assign, since that is the point.
 */
import type { KubernetesObject, RenderedObject } from '../../src/helm/manifests.js';

/** A copy of `rendered` changed by `change`. */
export function changedCopy<T>(
  rendered: RenderedObject,
  change: (object: T) => void,
): RenderedObject {
  const object = structuredClone(rendered.object) as unknown as T;
  change(object);
  return {
    source: `deliberately bad ${rendered.object.kind}`,
    object: object as unknown as KubernetesObject,
  };
}

/** `objects` with `kind/name` (the first of its kind when no name is given) changed. */
export function withChanged<T>(
  objects: readonly RenderedObject[],
  kind: string,
  name: string | undefined,
  change: (object: T) => void,
): RenderedObject[] {
  const index = objects.findIndex(
    ({ object }) => object.kind === kind && (name === undefined || object.metadata.name === name),
  );
  if (index < 0) throw new Error(`no ${kind}/${name ?? '*'} rendered`);
  return objects.map((rendered, at) => (at === index ? changedCopy(rendered, change) : rendered));
}

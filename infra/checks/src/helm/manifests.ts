/**
 * Rendered manifests as objects: helm's multi-document output split at `---`, each document
 * parsed as YAML 1.1, the dialect the Kubernetes API machinery reads (`0440` is octal, `on` is
 * true), so the checks see the values the cluster would.
 */
import { parse } from 'yaml';

/** The fields every Kubernetes object has; the rest is kind-specific. */
export interface KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly [field: string]: unknown;
}

/** One rendered object and the template it came from. */
export interface RenderedObject {
  readonly source: string;
  readonly object: KubernetesObject;
}

const SOURCE_LINE = /^# Source: (.+)$/m;

function isKubernetesObject(value: unknown): value is KubernetesObject {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<KubernetesObject>;
  return (
    typeof candidate.apiVersion === 'string' &&
    typeof candidate.kind === 'string' &&
    typeof candidate.metadata?.name === 'string'
  );
}

/** Parses helm's output; throws on a document that is not a Kubernetes object. */
export function parseManifests(rendered: string): RenderedObject[] {
  const objects: RenderedObject[] = [];
  for (const document of rendered.split(/^---\s*$/m)) {
    const source = SOURCE_LINE.exec(document)?.[1] ?? '(unknown template)';
    const value: unknown = parse(document, { version: '1.1' });
    if (value === null || value === undefined) continue;
    if (!isKubernetesObject(value))
      throw new Error(`${source}: not a Kubernetes object (apiVersion, kind, metadata.name)`);
    objects.push({ source, object: value });
  }
  return objects;
}

/** `Kind/name`, how messages name an object. */
export function describeObject(object: KubernetesObject): string {
  return `${object.kind}/${object.metadata.name}`;
}

/** Whether a template annotated the object as a Helm hook (`test` hooks included). */
export function helmHooks(object: KubernetesObject): string[] {
  const hooks = object.metadata.annotations?.['helm.sh/hook'];
  return hooks ? hooks.split(',').map((hook) => hook.trim()) : [];
}

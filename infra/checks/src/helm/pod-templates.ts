/**
 * The pods a render would run: the pod template of each Deployment, StatefulSet and Job, and
 * each bare Pod (the `helm test` pod), with whether a Helm hook runs it.
 */
import type { Deployment, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Container, Pod, PodSpec } from 'kubernetes-types/core/v1.js';
import { describeObject, helmHooks, type RenderedObject } from './manifests.js';

export interface PodTemplate {
  /** `Kind/name` of the object that runs the pod. */
  readonly owner: string;
  readonly kind: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly spec: PodSpec;
  /** Run by a Helm hook (the migration Job) or by `helm test`: runs to completion. */
  readonly runsToCompletion: boolean;
}

const TEMPLATED_KINDS = new Set(['Deployment', 'StatefulSet', 'Job']);

/** Every pod template of the render. */
export function podTemplates(objects: readonly RenderedObject[]): PodTemplate[] {
  const pods: PodTemplate[] = [];
  for (const { object } of objects) {
    const owner = describeObject(object);
    const base = { owner, kind: object.kind, name: object.metadata.name };
    const runsToCompletion = object.kind === 'Job' || helmHooks(object).length > 0;
    if (TEMPLATED_KINDS.has(object.kind)) {
      const template = (object as unknown as Deployment | StatefulSet | Job).spec?.template;
      if (!template?.spec) continue;
      pods.push({
        ...base,
        labels: template.metadata?.labels ?? {},
        annotations: template.metadata?.annotations ?? {},
        spec: template.spec,
        runsToCompletion,
      });
    } else if (object.kind === 'Pod') {
      const pod = object as unknown as Pod;
      if (!pod.spec) continue;
      const { labels = {}, annotations = {} } = pod.metadata ?? {};
      pods.push({ ...base, labels, annotations, spec: pod.spec, runsToCompletion });
    }
  }
  return pods;
}

/** Every container of a pod, init containers included. */
export function containersOf(pod: PodTemplate): Container[] {
  return [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
}

/**
 * The loop the container rules share: every container of every pod a render runs, asked what
 * is wrong with it, each answer a violation named `Kind/name/container`.
 */
import type { Container } from 'kubernetes-types/core/v1.js';
import type { RenderedObject } from '../manifests.js';
import { containersOf, podTemplates, type PodTemplate } from '../pod-templates.js';
import type { Violation } from './violation.js';

export function containerFindings(
  rule: string,
  objects: readonly RenderedObject[],
  findings: (container: Container, pod: PodTemplate) => string[],
  includePod: (pod: PodTemplate) => boolean = () => true,
): Violation[] {
  return podTemplates(objects)
    .filter(includePod)
    .flatMap((pod) =>
      containersOf(pod).flatMap((container) =>
        findings(container, pod).map((message) => ({
          rule,
          subject: `${pod.owner}/${container.name}`,
          message,
        })),
      ),
    );
}

/**
 * Rule: every HorizontalPodAutoscaler scales a Deployment or StatefulSet of this render, one
 * that leaves `replicas` to it (a `replicas` in the workload would be reset on every upgrade,
 * fighting the autoscaler).
 */
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2.js';
import { describeObject } from '../manifests.js';
import type { Rule, Violation } from './violation.js';

export const autoscalerTargets: Rule = {
  name: 'autoscaler-targets',
  description:
    'every HorizontalPodAutoscaler targets a Deployment or StatefulSet of this render that sets no replicas',
  check(objects) {
    const violations: Violation[] = [];
    for (const { object } of objects) {
      if (object.kind !== 'HorizontalPodAutoscaler') continue;
      const target = (object as unknown as HorizontalPodAutoscaler).spec?.scaleTargetRef;
      const workload = objects.find(
        ({ object: candidate }) =>
          candidate.apiVersion === target?.apiVersion &&
          candidate.kind === target?.kind &&
          candidate.metadata.name === target?.name,
      );
      const subject = describeObject(object);
      if (!workload)
        violations.push({
          rule: this.name,
          subject,
          message: `scales ${target?.apiVersion} ${target?.kind}/${target?.name}, which this render does not have`,
        });
      else if ((workload.object['spec'] as { replicas?: number }).replicas !== undefined)
        violations.push({
          rule: this.name,
          subject,
          message: `${describeObject(workload.object)} sets replicas, which the autoscaler owns`,
        });
    }
    return violations;
  },
};

/**
 * Rule: every Service port names its target (`targetPort: http`, not a number) and every pod
 * the Service selects declares a container port of that name, so a renumbered container cannot
 * leave a Service pointing at nothing.
 */
import type { Service } from 'kubernetes-types/core/v1.js';
import { mapSelector, selectorMatches } from '../label-selectors.js';
import { describeObject } from '../manifests.js';
import { containersOf, podTemplates } from '../pod-templates.js';
import type { Rule, Violation } from './violation.js';

export const serviceTargetPorts: Rule = {
  name: 'service-target-ports',
  description:
    'every Service targetPort is a name that each selected pod declares as a containerPort',
  check(objects) {
    const pods = podTemplates(objects).filter((pod) => !pod.runsToCompletion);
    const violations: Violation[] = [];
    for (const { object } of objects) {
      if (object.kind !== 'Service') continue;
      const { spec } = object as unknown as Service;
      const selected = pods.filter((pod) =>
        selectorMatches(mapSelector(spec?.selector), pod.labels),
      );
      for (const port of spec?.ports ?? []) {
        const target = port.targetPort;
        const subject = `${describeObject(object)}:${port.name ?? port.port}`;
        if (typeof target !== 'string') {
          violations.push({
            rule: this.name,
            subject,
            message: `targetPort ${target ?? '(unset)'} is not a port name`,
          });
          continue;
        }
        for (const pod of selected) {
          const declared = containersOf(pod).some((container) =>
            (container.ports ?? []).some((containerPort) => containerPort.name === target),
          );
          if (!declared)
            violations.push({
              rule: this.name,
              subject,
              message: `targetPort "${target}" is not a container port of ${pod.owner}`,
            });
        }
      }
    }
    return violations;
  },
};

/**
 * Rule: every container of a long-running pod has a startup, a readiness and a liveness probe.
 * Pods that run to completion (the migration hook Job, the `helm test` pod) are excepted: a
 * probe there would only restart a task that is meant to end.
 */
import { containerFindings } from './container-findings.js';
import type { Rule } from './violation.js';

const PROBES = ['startupProbe', 'readinessProbe', 'livenessProbe'] as const;

export const containerProbes: Rule = {
  name: 'container-probes',
  description:
    'every container of a long-running pod has startup, readiness and liveness probes (hook and test pods excepted)',
  check(objects) {
    return containerFindings(
      this.name,
      objects,
      (container) => {
        const missing = PROBES.filter((probe) => !container[probe]);
        return missing.length > 0 ? [`has no ${missing.join(', ')}`] : [];
      },
      (pod) => !pod.runsToCompletion,
    );
  },
};

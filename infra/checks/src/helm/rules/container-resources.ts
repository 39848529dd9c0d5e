/**
 * Rule: every container, hook and test pods included, requests CPU and memory (the scheduler and
 * the autoscalers need both) and has a memory limit (a leak is killed, not left to starve its
 * node).
 */
import { containerFindings } from './container-findings.js';
import type { Rule } from './violation.js';

export const containerResources: Rule = {
  name: 'container-resources',
  description: 'every container requests cpu and memory and has a memory limit',
  check(objects) {
    return containerFindings(this.name, objects, (container) => {
      const { requests = {}, limits = {} } = container.resources ?? {};
      const missing = [
        requests['cpu'] === undefined && 'requests.cpu',
        requests['memory'] === undefined && 'requests.memory',
        limits['memory'] === undefined && 'limits.memory',
      ].filter((field): field is string => field !== false);
      return missing.length > 0 ? [`has no ${missing.join(', ')}`] : [];
    });
  },
};

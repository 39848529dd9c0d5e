/**
 * Every rule the rendered chart must keep, and one call that runs them all.
 */
import type { RenderedObject } from '../manifests.js';
import { autoscalerTargets } from './autoscaler-targets.js';
import { containerHardening } from './container-hardening.js';
import { containerProbes } from './container-probes.js';
import { containerResources } from './container-resources.js';
import { relayDrain } from './relay-drain.js';
import { relaySpool } from './relay-spool.js';
import { routeBackends } from './route-backends.js';
import { serviceMonitors } from './service-monitors.js';
import { serviceTargetPorts } from './service-target-ports.js';
import type { Rule, Violation } from './violation.js';
import { workloadSelectors } from './workload-selectors.js';

export const CHART_RULES: readonly Rule[] = [
  containerProbes,
  containerResources,
  containerHardening,
  workloadSelectors,
  autoscalerTargets,
  serviceTargetPorts,
  routeBackends,
  serviceMonitors,
  relaySpool,
  relayDrain,
];

/** The violations of every rule, as `rule: subject: message` lines. */
export function ruleViolations(objects: readonly RenderedObject[]): string[] {
  return CHART_RULES.flatMap((rule) => rule.check(objects)).map(
    (violation: Violation) => `${violation.rule}: ${violation.subject}: ${violation.message}`,
  );
}

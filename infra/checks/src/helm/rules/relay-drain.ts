/**
 * Rule: a relay pod's termination grace period outlasts its preStop pause plus
 * RELAY_SHUTDOWN_TIMEOUT (the time in-flight upstream sends get on SIGTERM) with 5 s to close the
 * spool; a shorter one lets the kubelet kill the relay mid-drain.
 */
import type { Container } from 'kubernetes-types/core/v1.js';
import { podTemplates } from '../pod-templates.js';
import { RELAY_COMPONENT } from './relay-spool.js';
import type { Rule, Violation } from './violation.js';

const CLOSE_MARGIN_SECONDS = 5;
// The relay's default RELAY_SHUTDOWN_TIMEOUT (services/relay/src/config.ts).
const DEFAULT_SHUTDOWN = '10s';
const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** Seconds of a duration such as `500ms`, `20s` or `1m`; NaN when it is not one. */
export function durationSeconds(duration: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(duration.trim());
  return match ? Number(match[1]) * (UNITS[match[2] ?? ''] ?? Number.NaN) : Number.NaN;
}

function preStopSleepSeconds(container: Container): number {
  const command = container.lifecycle?.preStop?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1] ?? 0) : 0;
}

export const relayDrain: Rule = {
  name: 'relay-drain',
  description: `a relay pod's grace period exceeds its preStop pause + RELAY_SHUTDOWN_TIMEOUT + ${CLOSE_MARGIN_SECONDS} s`,
  check(objects) {
    const violations: Violation[] = [];
    for (const pod of podTemplates(objects)) {
      if (pod.labels['app.kubernetes.io/component'] !== RELAY_COMPONENT) continue;
      const grace = pod.spec.terminationGracePeriodSeconds ?? 30;
      for (const container of pod.spec.containers) {
        const timeout =
          container.env?.find((variable) => variable.name === 'RELAY_SHUTDOWN_TIMEOUT')?.value ??
          DEFAULT_SHUTDOWN;
        const needed =
          preStopSleepSeconds(container) + durationSeconds(timeout) + CLOSE_MARGIN_SECONDS;
        if (!(grace >= needed))
          violations.push({
            rule: this.name,
            subject: `${pod.owner}/${container.name}`,
            message: `terminationGracePeriodSeconds ${grace} < ${needed} (preStop + RELAY_SHUTDOWN_TIMEOUT ${timeout} + ${CLOSE_MARGIN_SECONDS} s)`,
          });
      }
    }
    return violations;
  },
};

/**
 * Rule: the relay (the pods labelled app.kubernetes.io/component=relay) runs as a StatefulSet
 * whose volumeClaimTemplate is mounted at /spool, where RELAY_SPOOL_DIR points: each replica
 * keeps its own durable spool across restarts and reschedules, and an envelope it acknowledged
 * is still there when it returns.
 */
import type { StatefulSet } from 'kubernetes-types/apps/v1.js';
import { podTemplates } from '../pod-templates.js';
import type { Rule, Violation } from './violation.js';

export const RELAY_COMPONENT = 'relay';
const SPOOL = '/spool';

export const relaySpool: Rule = {
  name: 'relay-spool',
  description:
    'the relay is a StatefulSet with a volumeClaimTemplate mounted at /spool (RELAY_SPOOL_DIR)',
  check(objects) {
    const relays = podTemplates(objects).filter(
      (pod) => pod.labels['app.kubernetes.io/component'] === RELAY_COMPONENT,
    );
    const violation = (subject: string, message: string): Violation => ({
      rule: this.name,
      subject,
      message,
    });
    if (relays.length === 0) return [violation('(render)', 'no workload runs the relay')];
    const violations: Violation[] = [];
    for (const pod of relays) {
      if (pod.kind !== 'StatefulSet') {
        violations.push(violation(pod.owner, 'runs the relay but is not a StatefulSet'));
        continue;
      }
      const statefulSet = objects.find(
        ({ object }) => object.kind === 'StatefulSet' && object.metadata.name === pod.name,
      )?.object as unknown as StatefulSet;
      const claims = new Set(
        (statefulSet.spec?.volumeClaimTemplates ?? []).map((claim) => claim.metadata?.name),
      );
      for (const container of pod.spec.containers) {
        const mount = (container.volumeMounts ?? []).find((each) => each.mountPath === SPOOL);
        const subject = `${pod.owner}/${container.name}`;
        if (!mount || !claims.has(mount.name))
          violations.push(violation(subject, `${SPOOL} is not mounted from a volumeClaimTemplate`));
        const spoolDir = container.env?.find((variable) => variable.name === 'RELAY_SPOOL_DIR');
        if (spoolDir?.value !== SPOOL)
          violations.push(
            violation(subject, `RELAY_SPOOL_DIR is ${spoolDir?.value}, not ${SPOOL}`),
          );
      }
    }
    return violations;
  },
};

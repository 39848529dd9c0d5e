/**
 * Rule: every Service, PodDisruptionBudget and NetworkPolicy selects pods that this render runs,
 * and so does every in-namespace peer of a NetworkPolicy rule (a podSelector without a
 * namespaceSelector). A selector that matches nothing is a typo that fails silently in a
 * cluster: a Service without endpoints, a budget that protects nothing, a policy that fences
 * nothing or lets nothing in.
 */
import type { NetworkPolicy, NetworkPolicyPeer } from 'kubernetes-types/networking/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { Service } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { mapSelector, selectorMatches } from '../label-selectors.js';
import { describeObject } from '../manifests.js';
import { podTemplates, type PodTemplate } from '../pod-templates.js';
import type { Rule, Violation } from './violation.js';

/** The selectors an object uses to pick pods, each with where it sits in the object. */
function selectorsOf(kind: string, object: unknown): { where: string; selector: LabelSelector }[] {
  if (kind === 'Service') {
    const { spec } = object as Service;
    return [{ where: 'spec.selector', selector: mapSelector(spec?.selector) }];
  }
  if (kind === 'PodDisruptionBudget') {
    const { spec } = object as PodDisruptionBudget;
    return [{ where: 'spec.selector', selector: spec?.selector ?? {} }];
  }
  if (kind === 'NetworkPolicy') {
    const { spec } = object as NetworkPolicy;
    const peers = (
      rules: { from?: NetworkPolicyPeer[]; to?: NetworkPolicyPeer[] }[],
      field: string,
    ) =>
      rules.flatMap((rule, index) =>
        (rule.from ?? rule.to ?? [])
          .filter((peer) => peer.podSelector && !peer.namespaceSelector)
          .map((peer) => ({ where: `${field}[${index}] peer`, selector: peer.podSelector ?? {} })),
      );
    return [
      { where: 'spec.podSelector', selector: spec?.podSelector ?? {} },
      ...peers(spec?.ingress ?? [], 'ingress'),
      ...peers(spec?.egress ?? [], 'egress'),
    ];
  }
  return [];
}

function isEmpty(selector: LabelSelector): boolean {
  return (
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    (selector.matchExpressions ?? []).length === 0
  );
}

export const workloadSelectors: Rule = {
  name: 'workload-selectors',
  description:
    'every Service, PodDisruptionBudget and NetworkPolicy (and each in-namespace policy peer) selects pods this render runs',
  check(objects) {
    const pods = podTemplates(objects);
    const longRunning = pods.filter((pod) => !pod.runsToCompletion);
    const violations: Violation[] = [];
    for (const { object } of objects) {
      // Services and budgets are for serving pods; policies fence hook pods as well.
      const candidates: PodTemplate[] = object.kind === 'NetworkPolicy' ? pods : longRunning;
      for (const { where, selector } of selectorsOf(object.kind, object)) {
        const empty = isEmpty(selector) && object.kind !== 'NetworkPolicy';
        if (empty || !candidates.some((pod) => selectorMatches(selector, pod.labels)))
          violations.push({
            rule: this.name,
            subject: describeObject(object),
            message: `${where} ${empty ? 'is empty' : 'matches no pod of this render'}: ${JSON.stringify(selector)}`,
          });
      }
    }
    return violations;
  },
};

/**
 * Which pod may open a connection to which, on which port, under a render's NetworkPolicies:
 * a connection needs the sender's egress and the receiver's ingress to allow it (a pod no
 * policy of that direction selects is unrestricted in it). Peers are matched by pod labels in
 * the release's namespace; ipBlock and namespaceSelector peers are taken to match no pod of the
 * release (they name addresses and namespaces outside it). Pure.
 */
import type { ContainerPort } from 'kubernetes-types/core/v1.js';
import type {
  NetworkPolicy,
  NetworkPolicyPeer,
  NetworkPolicyPort,
  NetworkPolicySpec,
} from 'kubernetes-types/networking/v1.js';
import { selectorMatches, type Labels } from './label-selectors.js';
import type { RenderedObject } from './manifests.js';
import { containersOf, podTemplates } from './pod-templates.js';

const COMPONENT = 'app.kubernetes.io/component';

/** `from → to:port`, components named by their app.kubernetes.io/component label. */
export type NetworkPath = string;

function peersMatch(peers: NetworkPolicyPeer[] | undefined, labels: Labels): boolean {
  if (!peers || peers.length === 0) return true;
  return peers.some(
    (peer) =>
      !peer.namespaceSelector && !peer.ipBlock && selectorMatches(peer.podSelector ?? {}, labels),
  );
}

function portsMatch(ports: NetworkPolicyPort[] | undefined, port: ContainerPort): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some(
    (each) =>
      (each.protocol ?? 'TCP') === (port.protocol ?? 'TCP') &&
      (each.port === undefined || each.port === port.containerPort || each.port === port.name),
  );
}

/** Every path between the release's pods that the policies leave open, sorted. */
export function openPaths(objects: readonly RenderedObject[]): NetworkPath[] {
  const policies = objects
    .filter(({ object }) => object.kind === 'NetworkPolicy')
    .map(
      ({ object }): NetworkPolicySpec =>
        (object as unknown as NetworkPolicy).spec ?? { podSelector: {} },
    );
  const pods = podTemplates(objects).filter((pod) => pod.labels[COMPONENT]);
  const governing = (labels: Labels, type: 'Ingress' | 'Egress') =>
    policies.filter(
      (policy) =>
        (policy.policyTypes ?? ['Ingress']).includes(type) &&
        selectorMatches(policy.podSelector ?? {}, labels),
    );
  const paths = new Set<NetworkPath>();
  for (const sender of pods) {
    const egress = governing(sender.labels, 'Egress');
    for (const receiver of pods) {
      if (receiver.labels[COMPONENT] === sender.labels[COMPONENT]) continue;
      const ingress = governing(receiver.labels, 'Ingress');
      for (const port of containersOf(receiver).flatMap((container) => container.ports ?? [])) {
        const leaves =
          egress.length === 0 ||
          egress.some((policy) =>
            (policy.egress ?? []).some(
              (rule) => peersMatch(rule.to, receiver.labels) && portsMatch(rule.ports, port),
            ),
          );
        const enters =
          ingress.length === 0 ||
          ingress.some((policy) =>
            (policy.ingress ?? []).some(
              (rule) => peersMatch(rule.from, sender.labels) && portsMatch(rule.ports, port),
            ),
          );
        if (leaves && enters)
          paths.add(
            `${sender.labels[COMPONENT]} → ${receiver.labels[COMPONENT]}:${port.containerPort}`,
          );
      }
    }
  }
  return [...paths].sort();
}

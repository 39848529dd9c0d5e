/**
 * The networks each service of a compose file joins (anchors and merge keys resolved), so the
 * chart's NetworkPolicies can be held to the paths docker-compose.yml allows. Pure: takes the
 * file's text.
 */
import { parse } from 'yaml';

interface ComposeFile {
  services?: Record<string, { networks?: string[] | Record<string, unknown> } | null>;
}

/** Service name → the networks it joins (`default` when it names none). */
export function composeNetworks(text: string): Map<string, Set<string>> {
  const file = parse(text, { merge: true }) as ComposeFile;
  const networks = new Map<string, Set<string>>();
  for (const [service, definition] of Object.entries(file.services ?? {})) {
    const joined = definition?.networks ?? ['default'];
    networks.set(service, new Set(Array.isArray(joined) ? joined : Object.keys(joined)));
  }
  return networks;
}

/** Whether two services share a network, so compose lets either connect to the other. */
export function shareNetwork(
  networks: Map<string, Set<string>>,
  first: string,
  second: string,
): boolean {
  const ofFirst = networks.get(first) ?? new Set<string>();
  return [...(networks.get(second) ?? [])].some((network) => ofFirst.has(network));
}

/** Relay's `client_ips` filter: the sending client's IP (not `user.ip_address`) against IPs/CIDRs. */
import { ipMatches } from './ip-address.js';
import type { Filter } from './filter.js';

/** Drops envelopes from listed client IPs. */
export const clientIpsFilter: Filter = {
  id: 'ip-address',
  appliesTo: 'any',
  isEnabled: (config) => config.enabled.has('ip-address') && config.clientIps.length > 0,
  matches: (item, config) =>
    item.clientIp !== undefined &&
    config.clientIps.some((entry) => ipMatches(item.clientIp as string, entry)),
};

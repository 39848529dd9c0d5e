/**
 * Relay's `localhost` filter: `user.ip_address` of 127.0.0.1/::1, a `file:` URL, a request URL
 * host of localhost/127.0.0.1 (or a subdomain of them), the event's own `X-Forwarded-For` of a
 * loopback address, or, without a URL, a `Host`/`X-Forwarded-Host` of localhost/127.0.0.1.
 */
import { enabledById, type Filter } from './filter.js';

const LOOPBACK_IPS = new Set(['127.0.0.1', '::1']);
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

function isLocalHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/:\d+$/, '');
  return LOCAL_HOSTS.has(bare) || bare.endsWith('.localhost');
}

/** Drops events that came from a developer's machine. */
export const localhostFilter: Filter = {
  id: 'localhost',
  appliesTo: 'any',
  isEnabled: enabledById('localhost'),
  matches: (item) => {
    if (item.userIp !== undefined && LOOPBACK_IPS.has(item.userIp)) return true;
    const forwardedFor = item.requestHeaders['x-forwarded-for'];
    if (forwardedFor !== undefined && LOOPBACK_IPS.has(forwardedFor.trim())) return true;
    if (item.requestUrl !== undefined) {
      const match = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(
        item.requestUrl,
      );
      if (!match) return false;
      if (match[1]?.toLowerCase() === 'file') return true;
      return isLocalHost(match[2] ?? '');
    }
    const host = item.requestHeaders['x-forwarded-host'] ?? item.requestHeaders.host;
    return host !== undefined && LOCAL_HOSTS.has(host.toLowerCase().replace(/:\d+$/, ''));
  },
};

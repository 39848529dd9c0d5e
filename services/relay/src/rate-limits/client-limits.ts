/**
 * The relay's own per-client limits in Sentry's vocabulary, so SDKs back off as they do for
 * Sentry: 429 with `Retry-After` and `X-Sentry-Rate-Limits: <seconds>::key:<reason>` (no
 * categories: everything from this client or key waits). Addresses are limited per IPv4 address
 * and per IPv6 /64 (one subscriber's prefix), so rotating within a prefix does not escape. Pure.
 */
import { RelayError } from '../errors.js';

/** Which limit refused the request. */
export type ClientLimit = 'address' | 'key';

/** A dotted IPv4 address, also in its IPv4-mapped IPv6 form. */
const IPV4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i;

const REASONS: Readonly<Record<ClientLimit, string>> = {
  address: 'relay_client_address',
  key: 'relay_project_key',
};

/** The limiter key of a client address: the IPv4 address, or the /64 of an IPv6 one. */
export function addressKey(ip: string): string {
  const v4 = IPV4.exec(ip);
  if (v4) return v4[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.toLowerCase().replace(/%.*$/, '').split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : Math.max(0, 8 - front.length - back.length);
  const groups = [...front, ...Array<string>(zeros).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The refusal for a client over `limit`, waiting `retryAfterMs`. */
export function clientRateLimited(limit: ClientLimit, retryAfterMs: number): RelayError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const code = limit === 'address' ? 'RELAY_CLIENT_RATE_LIMITED' : 'RELAY_KEY_RATE_LIMITED';
  const who = limit === 'address' ? 'this client address' : 'this project key';
  return new RelayError(code, `too many requests from ${who}; retry in ${seconds} s`, {
    headers: {
      'retry-after': String(seconds),
      'x-sentry-rate-limits': `${seconds}::key:${REASONS[limit]}`,
    },
  });
}

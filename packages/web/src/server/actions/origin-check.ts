/**
 * CSRF defence for actions: the request's Origin must be one of the public origins. Forwarding
 * headers (X-Forwarded-Host/-Proto) are believed only from configured proxy addresses; from
 * anyone else they are ignored, so a client cannot talk its way past the check.
 */
import { BlockList, isIP } from 'node:net';

/** Addresses whose forwarding headers are trusted. */
export interface TrustedProxies {
  contains(address: string): boolean;
}

/** Parses entries like `10.0.0.0/8`, `127.0.0.1`, `::1` (throws on a bad entry, at start-up). */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address ?? '');
    if (!address || family === 0) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return {
    contains(address) {
      const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

function first(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.split(',')[0]?.trim() || undefined;
}

/** The origin the browser used, as far as this server can tell. */
export function effectiveOrigin(
  request: {
    headers: Readonly<Record<string, string | string[] | undefined>>;
    remoteAddress: string;
    encrypted: boolean;
  },
  proxies: TrustedProxies,
): string | undefined {
  const trusted = proxies.contains(request.remoteAddress);
  const host =
    (trusted ? first(request.headers['x-forwarded-host']) : undefined) ??
    first(request.headers['host']);
  if (!host) return undefined;
  const proto =
    (trusted ? first(request.headers['x-forwarded-proto']) : undefined) ??
    (request.encrypted ? 'https' : 'http');
  return `${proto}://${host}`.toLowerCase();
}

/** Why an action request was refused by the origin check, or null if it passes. */
export function checkOrigin(origin: string | undefined, allowed: readonly string[]): string | null {
  if (origin === undefined) return 'the request has no Origin header';
  if (origin === 'null') return 'requests from opaque origins (Origin: null) are refused';
  const normalised = origin.toLowerCase().replace(/\/$/, '');
  return allowed.some((candidate) => candidate.toLowerCase().replace(/\/$/, '') === normalised)
    ? null
    : `origin ${origin} is not one of the public origins`;
}

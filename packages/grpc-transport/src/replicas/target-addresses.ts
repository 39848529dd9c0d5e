/**
 * Where a server's replicas are: the configured target (`host:port`, or several separated by
 * commas) and every address its names resolve to. Parsing is pure; resolving asks c-ares (the
 * DNS servers of /etc/resolv.conf: Docker's embedded DNS answers a service name with one address
 * per replica), or getaddrinfo for `localhost`, which is not a DNS name.
 *
 * Why not getaddrinfo for every name: it runs in libuv's four-thread pool and cannot be
 * cancelled. In the compose drills a lookup of a stopped container's name hung until the
 * resolver gave up, an outage's lookups (and ioredis's during a Redis outage) filled that pool,
 * and a replica could not reach its server for seconds after it was back. c-ares asks
 * with a bounded timeout, off the pool.
 */
import dns from 'node:dns';
import net from 'node:net';

/** What resolving needs of a c-ares resolver (node:dns's Resolver has it). */
export interface AddressResolver {
  resolve4(hostname: string, callback: (error: Error | null, addresses: string[]) => void): void;
  resolve6(hostname: string, callback: (error: Error | null, addresses: string[]) => void): void;
}

/** Each query gives up after 1 s and is tried twice: a reconnect must not wait for long. */
export const cAresResolver = (): AddressResolver => new dns.Resolver({ timeout: 1000, tries: 2 });

/** One configured host and port. */
export interface TargetEntry {
  readonly host: string;
  readonly port: number;
}

/** One replica address, and the name its certificate must carry when it came from a name. */
export interface ReplicaAddress {
  /** host:port (IPv6 in brackets), unique per replica. */
  readonly address: string;
  readonly serverName?: string | undefined;
}

/** The target's entries; throws a clear error for a malformed one. */
export function parseTarget(target: string): TargetEntry[] {
  const entries = target
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('the target address is empty');
  return entries.map((entry) => {
    const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65_535)
      throw new Error(`"${entry}" is not host:port (IPv6 addresses in brackets)`);
    return { host: (match[1] ?? match[2])!, port };
  });
}

/** host:port, with an IPv6 host in brackets. */
export function formatAddress(host: string, port: number): string {
  return net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

/** True when no entry needs a lookup: the addresses never change. */
export function isFixed(entries: readonly TargetEntry[]): boolean {
  return entries.every((entry) => net.isIP(entry.host) !== 0);
}

/** Every address of every entry, deduplicated; rejects when no entry resolves at all. */
export async function resolveTarget(
  entries: readonly TargetEntry[],
  resolver: AddressResolver,
): Promise<ReplicaAddress[]> {
  const settled = await Promise.allSettled(entries.map((entry) => resolveEntry(entry, resolver)));
  const found = new Map<string, ReplicaAddress>();
  for (const result of settled)
    if (result.status === 'fulfilled')
      for (const replica of result.value)
        if (!found.has(replica.address)) found.set(replica.address, replica);
  if (found.size === 0) {
    const failure = settled.find((result) => result.status === 'rejected');
    throw failure ? failure.reason : new Error('no address found for the target');
  }
  return [...found.values()];
}

async function resolveEntry(entry: TargetEntry, resolver: AddressResolver) {
  if (net.isIP(entry.host) !== 0) return [{ address: formatAddress(entry.host, entry.port) }];
  const hosts = await hostAddresses(entry.host, resolver);
  return hosts.map((host) => ({
    address: formatAddress(host, entry.port),
    serverName: entry.host,
  }));
}

async function hostAddresses(host: string, resolver: AddressResolver): Promise<string[]> {
  if (host === 'localhost' || host.endsWith('.localhost')) {
    const all = await dns.promises.lookup(host, { all: true });
    return all.map((found) => found.address);
  }
  const ask = (family: 4 | 6) =>
    new Promise<string[]>((resolve, reject) =>
      (family === 4 ? resolver.resolve4 : resolver.resolve6).call(resolver, host, (error, found) =>
        error ? reject(error) : resolve(found),
      ),
    );
  try {
    const v4 = await ask(4);
    if (v4.length > 0) return v4;
  } catch (error) {
    // A name with only AAAA records answers A with ENODATA: try IPv6 before giving up.
    const v6 = await ask(6).catch(() => []);
    if (v6.length > 0) return v6;
    throw error;
  }
  return ask(6);
}

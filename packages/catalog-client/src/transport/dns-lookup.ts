/**
 * Name lookups for the connection to the data service that stay out of libuv's threadpool.
 * `dns.lookup` (getaddrinfo) runs there, four at a time, and cannot be cancelled: in the compose
 * drills a lookup of a stopped container's name hung until the resolver gave up, the background
 * reconnects of one outage stacked up four of them, and the replica could not reach the data
 * service for seconds after it was back (a Redis outage's ioredis lookups add more). c-ares asks
 * the DNS servers of /etc/resolv.conf itself (Docker's embedded DNS in compose, the cluster DNS
 * in Kubernetes), with a bounded timeout. `localhost` is not a DNS name and keeps getaddrinfo.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';

/** What the lookup needs of a c-ares resolver (node:dns's Resolver has it). */
export interface AddressResolver {
  resolve4(hostname: string, callback: (error: Error | null, addresses: string[]) => void): void;
  resolve6(hostname: string, callback: (error: Error | null, addresses: string[]) => void): void;
}

/** Each query gives up after 1 s and is tried twice: a reconnect must not wait for long. */
const defaultResolver = (): AddressResolver => new dns.Resolver({ timeout: 1000, tries: 2 });

/** A `lookup` for net/http2 connect options: IPv4 answers first, then IPv6. */
export function createDnsLookup(resolver: AddressResolver = defaultResolver()): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
      dns.lookup(hostname, options, callback);
      return;
    }
    const families: (4 | 6)[] = options.family === 6 ? [6] : options.family === 4 ? [4] : [4, 6];
    let firstError: Error | null = null;
    const next = (index: number) => {
      const family = families[index];
      if (family === undefined) {
        // The first family's error says more (ENOTFOUND, ETIMEOUT) than "no AAAA record".
        callback(firstError as NodeJS.ErrnoException, '', 4);
        return;
      }
      const resolve = family === 4 ? resolver.resolve4 : resolver.resolve6;
      resolve.call(resolver, hostname, (error, addresses) => {
        if (!error && addresses.length > 0) answer(addresses, family);
        else {
          firstError ??=
            error ?? Object.assign(new Error(`no address for ${hostname}`), { code: 'ENODATA' });
          next(index + 1);
        }
      });
    };
    next(0);

    function answer(addresses: string[], family: 4 | 6) {
      if (options.all)
        (callback as unknown as (error: null, all: dns.LookupAddress[]) => void)(
          null,
          addresses.map((address) => ({ address, family })),
        );
      else callback(null, addresses[0]!, family);
    }
  };
}

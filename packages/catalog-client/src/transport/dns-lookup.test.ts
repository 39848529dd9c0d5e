import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDnsLookup, type AddressResolver } from './dns-lookup.js';

type Answers = Record<string, { v4?: string[]; v6?: string[]; error?: string }>;

/** A resolver answering from a table, as c-ares would from DNS. */
function resolverWith(answers: Answers): AddressResolver & { asked: string[] } {
  const asked: string[] = [];
  const answer =
    (family: 'v4' | 'v6') =>
    (hostname: string, callback: (error: Error | null, addresses: string[]) => void) => {
      asked.push(`${family} ${hostname}`);
      const entry = answers[hostname];
      const addresses = entry?.[family] ?? [];
      const code = entry?.error ?? (entry ? 'ENODATA' : 'ENOTFOUND');
      setImmediate(() =>
        addresses.length > 0
          ? callback(null, addresses)
          : callback(Object.assign(new Error(`${code} ${hostname}`), { code }), []),
      );
    };
  return { asked, resolve4: answer('v4'), resolve6: answer('v6') };
}

function look(
  lookup: ReturnType<typeof createDnsLookup>,
  hostname: string,
  options: dns.LookupOptions,
): Promise<{
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
}> {
  return new Promise((resolve) =>
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
  );
}

afterEach(() => vi.restoreAllMocks());

describe('the data service connection looks names up with c-ares', () => {
  it('answers with the IPv4 address, alone or as the list net asks for', async () => {
    const lookup = createDnsLookup(resolverWith({ data: { v4: ['172.18.0.5', '172.18.0.6'] } }));
    expect(await look(lookup, 'data', {})).toEqual({
      error: null,
      address: '172.18.0.5',
      family: 4,
    });
    const all = await look(lookup, 'data', { all: true });
    expect(all.address).toEqual([
      { address: '172.18.0.5', family: 4 },
      { address: '172.18.0.6', family: 4 },
    ]);
  });

  it('asks for IPv6 when there is no IPv4 address, or when only IPv6 is wanted', async () => {
    const resolver = resolverWith({
      data: { v6: ['fd00::5'] },
      both: { v4: ['10.0.0.1'], v6: ['fd00::1'] },
    });
    const lookup = createDnsLookup(resolver);
    expect(await look(lookup, 'data', {})).toMatchObject({ address: 'fd00::5', family: 6 });
    expect(await look(lookup, 'both', { family: 6 })).toMatchObject({
      address: 'fd00::1',
      family: 6,
    });
    expect(resolver.asked).toEqual(['v4 data', 'v6 data', 'v6 both']);
  });

  it('fails with the DNS error and never falls back to getaddrinfo (the threadpool)', async () => {
    const getaddrinfo = vi.spyOn(dns, 'lookup');
    const lookup = createDnsLookup(resolverWith({ slow: { error: 'ETIMEOUT' } }));
    expect((await look(lookup, 'gone', {})).error?.code).toBe('ENOTFOUND');
    expect((await look(lookup, 'slow', {})).error?.code).toBe('ETIMEOUT');
    expect(getaddrinfo).not.toHaveBeenCalled();
  });

  it('leaves localhost to the system resolver (it is not a DNS name)', async () => {
    const resolver = resolverWith({});
    const { error, address } = await look(createDnsLookup(resolver), 'localhost', {});
    expect(error).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(address);
    expect(resolver.asked).toEqual([]);
  });
});

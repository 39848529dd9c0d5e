import { describe, expect, it } from 'vitest';
import { isFixed, parseTarget, resolveTarget, type AddressResolver } from './target-addresses.js';

function resolverOf(records: Record<string, { v4?: string[]; v6?: string[] }>): AddressResolver {
  const answer =
    (family: 'v4' | 'v6') =>
    (host: string, callback: (error: Error | null, addresses: string[]) => void) => {
      const found = records[host]?.[family];
      if (found) callback(null, found);
      else
        callback(Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    };
  return { resolve4: answer('v4'), resolve6: answer('v6') };
}

describe('parseTarget', () => {
  it('reads one address or several, IPv6 in brackets', () => {
    expect(parseTarget('data:50051')).toEqual([{ host: 'data', port: 50051 }]);
    expect(parseTarget('10.0.0.1:1, [::1]:2 ,data-b:3')).toEqual([
      { host: '10.0.0.1', port: 1 },
      { host: '::1', port: 2 },
      { host: 'data-b', port: 3 },
    ]);
  });

  it('names the entry it cannot read', () => {
    expect(() => parseTarget('data')).toThrow('"data" is not host:port');
    expect(() => parseTarget('data:0')).toThrow('"data:0" is not host:port');
    expect(() => parseTarget('data:70000')).toThrow('"data:70000"');
    expect(() => parseTarget('::1:50051')).toThrow('IPv6 addresses in brackets');
    expect(() => parseTarget(' , ')).toThrow('empty');
  });

  it('knows when no entry needs a lookup', () => {
    expect(isFixed(parseTarget('127.0.0.1:1,[::1]:2'))).toBe(true);
    expect(isFixed(parseTarget('127.0.0.1:1,data:2'))).toBe(false);
  });
});

describe('resolveTarget', () => {
  it('gives every address of every name, keeping the name for certificate checks', async () => {
    const resolver = resolverOf({ data: { v4: ['10.0.0.5', '10.0.0.6'] } });
    expect(await resolveTarget(parseTarget('data:50051,10.0.0.9:50051'), resolver)).toEqual([
      { address: '10.0.0.5:50051', serverName: 'data' },
      { address: '10.0.0.6:50051', serverName: 'data' },
      { address: '10.0.0.9:50051' },
    ]);
  });

  it('falls back to IPv6 records, and drops duplicates', async () => {
    const resolver = resolverOf({ six: { v6: ['fd00::1'] }, four: { v4: ['10.0.0.5'] } });
    expect(await resolveTarget(parseTarget('six:1,four:2,10.0.0.5:2'), resolver)).toEqual([
      { address: '[fd00::1]:1', serverName: 'six' },
      { address: '10.0.0.5:2', serverName: 'four' },
    ]);
  });

  it('keeps the names that resolve when another does not, and fails when none does', async () => {
    const resolver = resolverOf({ data: { v4: ['10.0.0.5'] } });
    expect(await resolveTarget(parseTarget('gone:1,data:1'), resolver)).toEqual([
      { address: '10.0.0.5:1', serverName: 'data' },
    ]);
    await expect(resolveTarget(parseTarget('gone:1'), resolver)).rejects.toThrow('ENOTFOUND gone');
  });
});

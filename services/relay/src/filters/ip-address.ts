/**
 * IPv4/IPv6 parsing and CIDR matching for the client-IP filter and the localhost check, with no
 * dependency on `node:net` (this folder stays pure). Unparsable entries never match.
 */

function groups(part: string | undefined): string[] {
  return part ? part.split(':') : [];
}

/** Parses an IPv4 or IPv6 address into a version and a 128-bit (or 32-bit) integer. */
export function parseIp(raw: string): { readonly v: 4 | 6; readonly value: bigint } | null {
  const text = raw
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split('.').map(Number);
    if (parts.some((part) => part > 255)) return null;
    return { v: 4, value: parts.reduce((acc, part) => (acc << 8n) | BigInt(part), 0n) };
  }
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (all.length !== 8 || all.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  return { v: 6, value: all.reduce((acc, group) => (acc << 16n) | BigInt(`0x${group}`), 0n) };
}

/** Whether `ip` equals an address entry or falls inside a CIDR entry. */
export function ipMatches(ip: string, entry: string): boolean {
  const address = parseIp(ip);
  if (!address) return false;
  const [base, prefixRaw] = entry.split('/');
  const network = parseIp(base ?? '');
  if (!network || network.v !== address.v) return false;
  const bits = address.v === 4 ? 32 : 128;
  const prefix = prefixRaw === undefined ? bits : Number(prefixRaw);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) return false;
  const shift = BigInt(bits - prefix);
  return address.value >> shift === network.value >> shift;
}

/**
 * Optional PII scrubbing of an event (in place): cookies and authorization headers removed,
 * `user.ip_address` truncated (IPv4 last octet, IPv6 last 80 bits), and common token patterns
 * (bearer tokens, JWTs, API keys, passwords in URLs/queries) replaced in messages, exception
 * values, breadcrumbs and the request URL.
 */
import type { JsonObject } from '../envelope/envelope.js';

const SENSITIVE_HEADERS = new Set([
  'cookie',
  'set-cookie',
  'authorization',
  'proxy-authorization',
  'x-api-key',
]);
const TOKEN_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [Filtered]'],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, '[Filtered]'],
  [/\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,}/g, '[Filtered]'],
  [/\b(?:ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}/g, '[Filtered]'],
  [/\bAKIA[0-9A-Z]{16}\b/g, '[Filtered]'],
  [
    /([?&;](?:password|passwd|pwd|secret|token|api_key|apikey|access_token|auth)=)[^&#\s]*/gi,
    '$1[Filtered]',
  ],
  [/(\/\/[^/:@\s]+:)[^@/\s]+@/g, '$1[Filtered]@'],
];

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Replaces token-like substrings. */
export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TOKEN_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Truncates an IP address: IPv4 keeps 3 octets, IPv6 the first 3 groups. */
export function truncateIp(ip: string): string {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return ip.replace(/\.\d+$/, '.0');
  if (ip.includes(':')) return `${ip.split(':').slice(0, 3).join(':')}::`;
  return ip;
}

/** Scrubs the event in place; returns a description of each change. */
export function scrubEvent(event: JsonObject): string[] {
  const changes: string[] = [];
  const request = event.request;
  if (isObject(request)) {
    if (request.cookies !== undefined) {
      delete request.cookies;
      changes.push('request.cookies removed');
    }
    if (isObject(request.headers)) {
      for (const name of Object.keys(request.headers)) {
        if (SENSITIVE_HEADERS.has(name.toLowerCase())) {
          delete request.headers[name];
          changes.push(`request header ${name} removed`);
        }
      }
    }
    if (typeof request.url === 'string') request.url = scrubText(request.url);
    if (typeof request.query_string === 'string')
      request.query_string = scrubText(`?${request.query_string}`).slice(1);
  }
  const user = event.user;
  if (isObject(user) && typeof user.ip_address === 'string' && user.ip_address !== '{{auto}}') {
    user.ip_address = truncateIp(user.ip_address);
    changes.push('user.ip_address truncated');
  }
  const before = JSON.stringify([
    event.message,
    event.logentry,
    event.exception,
    event.breadcrumbs,
  ]);
  scrubStrings(event, 'message');
  if (isObject(event.logentry)) scrubStrings(event.logentry, 'message', 'formatted');
  const exception = event.exception;
  const values = isObject(exception) ? exception.values : exception;
  if (Array.isArray(values))
    for (const value of values) if (isObject(value)) scrubStrings(value, 'value');
  const crumbs = isObject(event.breadcrumbs) ? event.breadcrumbs.values : event.breadcrumbs;
  if (Array.isArray(crumbs))
    for (const crumb of crumbs) if (isObject(crumb)) scrubStrings(crumb, 'message');
  if (
    JSON.stringify([event.message, event.logentry, event.exception, event.breadcrumbs]) !== before
  ) {
    changes.push('token patterns replaced');
  }
  return changes;
}

function scrubStrings(target: JsonObject, ...keys: string[]): void {
  for (const key of keys) {
    const value = target[key];
    if (typeof value === 'string') target[key] = scrubText(value);
  }
}

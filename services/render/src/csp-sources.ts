/**
 * Content-Security-Policy source lists from the environment: comma-separated, each entry a
 * keyword (`self`, `none`; quoted or not), a scheme (`https:`) or a host source
 * (`https://*.example.com:443/path`). Anything else is refused at start, so a value can never
 * smuggle another directive (`;`), a nonce or an `unsafe-…` keyword into the policy.
 */
import { csvList } from '@strata/config';

const KEYWORDS = new Map([
  ['self', "'self'"],
  ["'self'", "'self'"],
  ['none', "'none'"],
  ["'none'", "'none'"],
]);
const SCHEME = /^[a-z][a-z0-9+.-]*:$/i;
const HOST_SOURCE =
  /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(?:\d{1,5}|\*))?(?:\/[\w.~%!$&()*+=:@/-]*)?$/i;

/**
 * A source list variable. `none` is accepted only where it may stand for the whole list
 * (`allowNone`), and then alone.
 */
export function cspSources(defaultValue: string, { allowNone = false } = {}) {
  return csvList(defaultValue).transform((entries, ctx) => {
    const sources: string[] = [];
    for (const entry of entries) {
      const keyword = KEYWORDS.get(entry.toLowerCase());
      if (keyword === "'none'" && !allowNone)
        ctx.addIssue({ code: 'custom', message: 'none is not allowed here' });
      else if (keyword) sources.push(keyword);
      else if (SCHEME.test(entry) || HOST_SOURCE.test(entry)) sources.push(entry);
      else
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not a CSP source (self, none, https:, https://host.example)`,
        });
    }
    if (sources.includes("'none'") && sources.length > 1)
      ctx.addIssue({ code: 'custom', message: 'none cannot be combined with other sources' });
    return sources;
  });
}

/**
 * The security headers every response carries, as helmet options: the Content-Security-Policy
 * the runtime's documents need and nothing more, plus helmet's other defaults. Pure: the
 * nonce comes from the caller.
 *
 * Scripts: only those carrying the response's nonce run ('strict-dynamic' then trusts what they
 * load themselves: the client bundle's lazy chunks, the telemetry SDK). The runtime's own
 * requests (payloads, actions, the telemetry tunnel) are same-origin.
 */
import type { HelmetOptions } from 'helmet';

/** What an application may add to the policy (CSP source expressions, keywords quoted). */
export interface SecurityPolicy {
  /** Who may show the pages in a frame (CSP frame-ancestors). Default: nobody (`'none'`). */
  readonly frameAncestors?: readonly string[];
  /** Where the browser may connect besides the page's own origin (CSP connect-src). */
  readonly connectSources?: readonly string[];
  /** Where images may come from besides the page's own origin and `data:` (CSP img-src). */
  readonly imageSources?: readonly string[];
}

const NOBODY = "'none'";
const SAME_ORIGIN = "'self'";

/** helmet's options for `policy`, with `nonce` as the script nonce. */
export function helmetOptions(policy: SecurityPolicy, nonce: string): HelmetOptions {
  const frameAncestors = policy.frameAncestors?.length ? policy.frameAncestors : [NOBODY];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': [SAME_ORIGIN],
        'script-src': [`'nonce-${nonce}'`, "'strict-dynamic'"],
        // Layouts may inline a <style>, the error screen uses style attributes; styles run no code.
        'style-src': [SAME_ORIGIN, "'unsafe-inline'"],
        'img-src': unique([SAME_ORIGIN, 'data:', ...(policy.imageSources ?? [])]),
        'font-src': [SAME_ORIGIN, 'data:'],
        'connect-src': unique([SAME_ORIGIN, ...(policy.connectSources ?? [])]),
        'object-src': [NOBODY],
        'base-uri': [NOBODY],
        'form-action': [SAME_ORIGIN],
        'frame-ancestors': frameAncestors,
      },
    },
    // Only whoever terminates TLS knows whether every subdomain is HTTPS: set HSTS there.
    strictTransportSecurity: false,
    // Not no-referrer: with it, browsers send `Origin: null` on form posts, which the server
    // actions' origin check refuses.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: legacyFrameOptions(frameAncestors),
  };
}

/**
 * X-Frame-Options for browsers without frame-ancestors; it can say only "nobody" or "same
 * origin", so any other list is left to the policy alone.
 */
function legacyFrameOptions(frameAncestors: readonly string[]): HelmetOptions['xFrameOptions'] {
  const [only, ...rest] = frameAncestors;
  if (rest.length > 0) return false;
  if (only === NOBODY) return { action: 'deny' };
  if (only === SAME_ORIGIN) return { action: 'sameorigin' };
  return false;
}

function unique(sources: readonly string[]): string[] {
  return [...new Set(sources)];
}

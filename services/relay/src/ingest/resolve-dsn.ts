/**
 * Finds the allowed DSN a request is for. Ingest (`/api/:projectId/envelope/`): the claimed key
 * and the path's project id must match an allowed DSN. Tunnel: the envelope header's `dsn` must
 * equal an allowed DSN (secret ignored). Throws `RelayError` (400/403) otherwise. Pure.
 */
import type { AllowedDsn, DsnRegistry } from '../dsn/dsn-registry.js';
import type { JsonObject } from '../envelope/envelope.js';
import { RelayError } from '../errors.js';
import { claimedAuth, type AuthInputs } from '../http/request-auth.js';

/** Which endpoint received the envelope. */
export type Endpoint =
  { readonly kind: 'ingest'; readonly projectId: string } | { readonly kind: 'tunnel' };

/** Resolves the allowed DSN or throws. */
export function resolveDsn(
  registry: DsnRegistry,
  endpoint: Endpoint,
  auth: Omit<AuthInputs, 'envelopeDsn'>,
  envelopeHeader: JsonObject,
): AllowedDsn {
  if (registry.all.length === 0) {
    throw new RelayError('RELAY_NOT_CONFIGURED', 'no DSNs are configured (set RELAY_DSNS)');
  }
  const envelopeDsn = envelopeHeader.dsn;
  if (endpoint.kind === 'tunnel') {
    if (envelopeDsn === undefined) {
      throw new RelayError(
        'RELAY_DSN_MISSING',
        'the envelope header has no "dsn" (set `tunnel` in the SDK)',
      );
    }
    if (typeof envelopeDsn !== 'string')
      throw new RelayError('RELAY_DSN_INVALID', 'the envelope "dsn" is not a string');
    const match = registry.byDsnString(envelopeDsn);
    if (match === 'invalid')
      throw new RelayError('RELAY_DSN_INVALID', 'the envelope "dsn" is not a valid DSN');
    if (!match)
      throw new RelayError('RELAY_DSN_NOT_ALLOWED', 'the envelope "dsn" is not an allowed DSN');
    return match;
  }
  const claimed = claimedAuth({ ...auth, envelopeDsn });
  if (claimed === 'none') {
    throw new RelayError(
      'RELAY_AUTH_MISSING',
      'no sentry_key in the query, X-Sentry-Auth header or envelope "dsn"',
    );
  }
  if (claimed === 'invalid-dsn')
    throw new RelayError('RELAY_DSN_INVALID', 'the envelope "dsn" is not a valid DSN');
  if (
    claimed === 'conflict' ||
    (claimed.projectId !== undefined && claimed.projectId !== endpoint.projectId)
  ) {
    throw new RelayError(
      'RELAY_AUTH_CONFLICT',
      'the query, auth header and envelope "dsn" name different keys or projects',
    );
  }
  const match = registry.byProjectKey(endpoint.projectId, claimed.publicKey);
  if (!match)
    throw new RelayError(
      'RELAY_DSN_NOT_ALLOWED',
      `project ${endpoint.projectId} with this key is not an allowed DSN`,
    );
  return match;
}

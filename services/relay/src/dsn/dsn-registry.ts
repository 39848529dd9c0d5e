/**
 * The allow-list of DSNs from configuration, each resolved to a fixed upstream target. The
 * destination is always taken from here, never from a request (no SSRF, no open proxy).
 */
import { dsnIdentity, dsnIngestUrl, dsnLabel, parseDsn, publicDsnString, type Dsn } from './dsn.js';

/** Matching strings remembered (an allowed DSN with varying secret parts is still bounded). */
const MAX_MATCHED_STRINGS = 64;

/** Where envelopes for one DSN go. */
export interface UpstreamTarget {
  readonly kind: 'sentry' | 'spotlight';
  /** Full URL including auth query parameters; contains only the public key. */
  readonly url: string;
}

/** One allowed DSN with its upstream. */
export interface AllowedDsn {
  readonly dsn: Dsn;
  /** `projectId:publicKey`, used as the rate-limit and outcome key. */
  readonly key: string;
  readonly target: UpstreamTarget;
}

/** Lookup of allowed DSNs. */
export interface DsnRegistry {
  readonly all: readonly AllowedDsn[];
  /** Exact match of a DSN string from an envelope header (secret ignored). */
  byDsnString(raw: string): AllowedDsn | 'invalid' | undefined;
  /** Match by project id and public key (the ingest endpoint's auth). */
  byProjectKey(projectId: string, publicKey: string): AllowedDsn | undefined;
  byKey(key: string): AllowedDsn | undefined;
}

/** Options for resolving targets. */
export interface RegistryOptions {
  readonly upstreamKind: 'sentry' | 'spotlight';
  /** Overrides the DSN-derived origin (e.g. a Spotlight sidecar or a local Sentry). */
  readonly upstreamUrl?: string | undefined;
  readonly clientName: string;
}

/** Builds the registry; throws on an unparsable DSN (config is validated before this). */
export function createDsnRegistry(
  rawDsns: readonly string[],
  options: RegistryOptions,
): DsnRegistry {
  const all: AllowedDsn[] = rawDsns.map((raw) => {
    const dsn = parseDsn(raw);
    if (!dsn) throw new Error(`not a valid DSN: ${redactDsn(raw)}`);
    return { dsn, key: dsnLabel(dsn), target: resolveTarget(dsn, options) };
  });
  const byIdentity = new Map(all.map((entry) => [dsnIdentity(entry.dsn), entry]));
  const byKey = new Map<string, AllowedDsn>();
  for (const entry of all) if (!byKey.has(entry.key)) byKey.set(entry.key, entry);
  // Browsers send the same DSN string every time: remember the strings that matched. Only
  // those: a refused string is never kept, so hostile strings cannot fill memory.
  const matched = new Map<string, AllowedDsn>();
  return {
    all,
    byDsnString(raw) {
      const known = matched.get(raw);
      if (known) return known;
      const dsn = parseDsn(raw);
      if (!dsn) return 'invalid';
      const answer = byIdentity.get(dsnIdentity(dsn));
      if (!answer) return undefined;
      if (matched.size >= MAX_MATCHED_STRINGS) matched.clear();
      matched.set(raw, answer);
      return answer;
    },
    byProjectKey: (projectId, publicKey) => byKey.get(`${projectId}:${publicKey}`),
    byKey: (key) => byKey.get(key),
  };
}

function resolveTarget(dsn: Dsn, options: RegistryOptions): UpstreamTarget {
  if (options.upstreamKind === 'spotlight') {
    const base = (options.upstreamUrl ?? 'http://localhost:8969').replace(/\/+$/, '');
    return { kind: 'spotlight', url: `${base}/stream` };
  }
  const ingest = dsnIngestUrl(dsn);
  const url = options.upstreamUrl
    ? `${options.upstreamUrl.replace(/\/+$/, '')}${new URL(ingest).pathname}`
    : ingest;
  const query = new URLSearchParams({
    sentry_version: '7',
    sentry_key: dsn.publicKey,
    sentry_client: options.clientName,
  });
  return { kind: 'sentry', url: `${url}?${query.toString()}` };
}

/** Removes the secret part of a DSN-like string before it is shown anywhere. */
export function redactDsn(raw: string): string {
  return raw.replace(/^(\w+:\/\/[^:@/]+):[^@/]*@/, '$1:***@');
}

/** The public DSN string of an allowed DSN (for envelope headers the relay writes). */
export function publicDsnFor(allowed: AllowedDsn): string {
  return publicDsnString(allowed.dsn);
}

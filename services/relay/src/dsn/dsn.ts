/**
 * DSN parsing (shape as in the SDK's `dsn.ts`: protocol://publicKey[:secret]@host[:port]/[path/]
 * projectId) and the identity used to compare DSNs. Pure.
 */

/** A parsed DSN. `secretKey` is kept only to be discarded: it is never logged or forwarded. */
export interface Dsn {
  readonly protocol: 'http' | 'https';
  readonly publicKey: string;
  readonly host: string;
  readonly port: string;
  readonly path: string;
  readonly projectId: string;
}

const DSN_PATTERN =
  /^(https?):\/\/([\w-]+)(?::[\w-]+)?@((?:\[[0-9a-fA-F:.]+\])|[\w.-]+)(?::(\d+))?\/(.*\/)?(\d+)\/?$/;

/** Parses a DSN string; null when it is not a valid http(s) DSN with a numeric project id. */
export function parseDsn(raw: string): Dsn | null {
  const match = DSN_PATTERN.exec(raw.trim());
  if (!match) return null;
  const [, protocol, publicKey, host, port, path, projectId] = match;
  if (!protocol || !publicKey || !host || !projectId || /^0+$/.test(projectId)) return null;
  return {
    protocol: protocol as Dsn['protocol'],
    publicKey,
    host: host.toLowerCase(),
    port: port ?? '',
    path: (path ?? '').replace(/\/$/, ''),
    projectId,
  };
}

/** Identity of a DSN for allow-list comparison: everything except the secret. */
export function dsnIdentity(dsn: Dsn): string {
  const port = dsn.port ? `:${dsn.port}` : '';
  const path = dsn.path ? `/${dsn.path}` : '';
  return `${dsn.protocol}://${dsn.publicKey}@${dsn.host}${port}${path}/${dsn.projectId}`;
}

/** Short label used in metrics and logs: project id and public key (never the secret). */
export function dsnLabel(dsn: Dsn): string {
  return `${dsn.projectId}:${dsn.publicKey}`;
}

/** The public DSN string (secret removed), as SDKs put it in envelope headers. */
export function publicDsnString(dsn: Dsn): string {
  return dsnIdentity(dsn);
}

/** The DSN's own ingest URL: `<origin>/[path/]api/<projectId>/envelope/`. */
export function dsnIngestUrl(dsn: Dsn): string {
  const port = dsn.port ? `:${dsn.port}` : '';
  const path = dsn.path ? `/${dsn.path}` : '';
  return `${dsn.protocol}://${dsn.host}${port}${path}/api/${dsn.projectId}/envelope/`;
}

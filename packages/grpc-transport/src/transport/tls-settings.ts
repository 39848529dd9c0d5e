/**
 * TLS to a gRPC server: the certificates in PEM (the caller's config reads the files); the same
 * shape serves a server's side.
 */

/** A client's TLS settings: trust `ca`; present `cert`/`key` when the server asks (mutual TLS). */
export interface TlsSettings {
  /** The CA that signed the server's certificate (PEM). */
  readonly ca: string | Buffer;
  /** This client's certificate and key (PEM), for mutual TLS. */
  readonly cert?: string | Buffer | undefined;
  readonly key?: string | Buffer | undefined;
}

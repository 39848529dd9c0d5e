/**
 * TLS between a service and the data service: the certificates in PEM (the services' config
 * reads the files), shared by the client side here and by the data service's server.
 */

/** A client's TLS settings: trust `ca`; present `cert`/`key` when the server asks (mutual TLS). */
export interface TlsSettings {
  /** The CA that signed the data service's certificate (PEM). */
  readonly ca: string | Buffer;
  /** This client's certificate and key (PEM), for mutual TLS. */
  readonly cert?: string | Buffer | undefined;
  readonly key?: string | Buffer | undefined;
}

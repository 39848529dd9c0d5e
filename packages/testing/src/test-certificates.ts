/**
 * A throwaway certificate authority for TLS tests: a CA, a server certificate for the names the
 * tests dial (localhost, 127.0.0.1, 127.0.0.2 and `data`, the compose service name) and a client
 * certificate for mutual TLS, all made by the `openssl` command in a temporary directory, so no
 * key is ever committed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM files of one test CA, as paths and as bytes. */
export interface TestCertificates {
  readonly directory: string;
  readonly caPath: string;
  readonly serverCertPath: string;
  readonly serverKeyPath: string;
  readonly clientCertPath: string;
  readonly clientKeyPath: string;
  /** A second CA that signed nothing here: a client trusting only it must be refused. */
  readonly otherCaPath: string;
  read(path: string): Buffer;
  remove(): void;
}

const SERVER_NAMES = 'DNS:localhost,DNS:data,IP:127.0.0.1,IP:127.0.0.2';

export function createTestCertificates(): TestCertificates {
  const directory = mkdtempSync(join(tmpdir(), 'strata-tls-'));
  const at = (name: string) => join(directory, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const authority = (name: string) =>
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.pem`),
    );
  const signed = (name: string, extensions: string) => {
    openssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.csr`),
    );
    writeFileSync(at(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
      '-out',
      at(`${name}.pem`),
    );
  };
  authority('ca');
  authority('other-ca');
  signed('server', `subjectAltName=${SERVER_NAMES}\nextendedKeyUsage=serverAuth,clientAuth\n`);
  signed('client', 'extendedKeyUsage=clientAuth\n');
  return {
    directory,
    caPath: at('ca.pem'),
    serverCertPath: at('server.pem'),
    serverKeyPath: at('server.key'),
    clientCertPath: at('client.pem'),
    clientKeyPath: at('client.key'),
    otherCaPath: at('other-ca.pem'),
    read: (path) => readFileSync(path),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

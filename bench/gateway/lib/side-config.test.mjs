import { describe, expect, it } from 'vitest';
import { gatewaySetup, withReplicaAddresses } from './side-config.mjs';

const FIXED = 'upstream render { server render-1:3000; server render-2:3000; keepalive 64; }';
const fromFiles = (files) => (name) => files[name];

describe('gatewaySetup', () => {
  it('runs start.sh with the side’s own files when the side has it', () => {
    const files = { 'nginx.conf': 'include upstreams.conf;', 'start.sh': '#!/bin/sh' };
    expect(gatewaySetup(fromFiles(files), ['10.0.0.5', '10.0.0.6'])).toEqual({
      files,
      command: ['sh', '/etc/nginx/start.sh'],
    });
  });

  it('points an older fixed upstream at the replicas’ addresses and runs nginx itself', () => {
    const setup = gatewaySetup(fromFiles({ 'nginx.conf': FIXED }), ['10.0.0.5', '10.0.0.6']);
    expect(setup.files['nginx.conf']).toBe(
      'upstream render { server 10.0.0.5:3000; server 10.0.0.6:3000; keepalive 64; }',
    );
    expect(setup.command).toEqual(['nginx', '-e', 'stderr', '-g', 'daemon off;']);
  });

  it('mounts browser-headers.conf only when the side has one', () => {
    const withHeaders = { 'nginx.conf': FIXED, 'browser-headers.conf': 'add_header X 1;' };
    expect(Object.keys(gatewaySetup(fromFiles(withHeaders), ['a', 'b']).files).sort()).toEqual([
      'browser-headers.conf',
      'nginx.conf',
    ]);
  });

  it('refuses a side with no nginx.conf', () => {
    expect(() => gatewaySetup(fromFiles({}), [])).toThrow('no infra/gateway/nginx.conf');
  });
});

describe('withReplicaAddresses', () => {
  it('refuses a configuration that names no fixed replicas', () => {
    expect(() =>
      withReplicaAddresses('upstream render { server render:3000; }', ['a', 'b']),
    ).toThrow('neither start.sh nor a fixed upstream naming render-1:3000');
  });

  it('refuses a replica count the fixed upstream cannot take', () => {
    expect(() => withReplicaAddresses(FIXED, ['10.0.0.5'])).toThrow(
      'needs 2 render replicas, not 1',
    );
  });
});

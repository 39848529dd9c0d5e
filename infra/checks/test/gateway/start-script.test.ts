/**
 * The gateway's start script refuses a setting it would otherwise paste into nginx's
 * configuration, before it writes anything or starts nginx: exit 64 and a line naming the
 * variable. (Its DNS following is drilled against real replicas in the compose tests.)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../gateway/start.sh', import.meta.url));

function start(env: Record<string, string>) {
  const result = spawnSync('sh', [SCRIPT], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe('infra/gateway/start.sh', () => {
  it.each([
    ['GATEWAY_RENDER_ADDRESS', 'render:3000; include /etc/passwd'],
    ['GATEWAY_RENDER_ADDRESS', 'render'],
    ['GATEWAY_RELAY_ADDRESS', 'relay:31000000'],
    ['GATEWAY_RELAY_ADDRESS', 'relay :3100'],
  ])('refuses %s=%j', (name, value) => {
    const { status, stderr } = start({ [name]: value });
    expect(status).toBe(64);
    expect(stderr).toContain(`'${value}' is not host:port`);
  });

  it.each(['10.0.0.0/8;deny all', 'lb.example', '10.0.0.0/8 lb'])(
    'refuses GATEWAY_TRUSTED_PROXIES=%j',
    (value) => {
      const { status, stderr } = start({ GATEWAY_TRUSTED_PROXIES: value });
      expect(status).toBe(64);
      expect(stderr).toMatch(/GATEWAY_TRUSTED_PROXIES: '.+' is not an address or CIDR range/);
    },
  );

  it.each(['0', '2s', '-1'])('refuses GATEWAY_DNS_INTERVAL=%j', (value) => {
    const { status, stderr } = start({ GATEWAY_DNS_INTERVAL: value });
    expect(status).toBe(64);
    expect(stderr).toContain(`GATEWAY_DNS_INTERVAL '${value}' is not a whole number of seconds`);
  });
});

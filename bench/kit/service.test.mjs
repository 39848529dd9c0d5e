import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sideFromEnv as relaySide } from '../relay/scenario.mjs';
import { sideFromEnv as renderSide } from '../render/scenario.mjs';
import { startService } from './service.mjs';

const root = mkdtempSync(join(tmpdir(), 'kit-service-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// A service that says which binary started it, and a "node" that marks what it runs.
writeFileSync(join(root, 'says.mjs'), 'console.log(`ready via ${process.env.VIA}`);\n');
const wrapper = join(root, 'marked-node');
writeFileSync(wrapper, `#!/bin/sh\nVIA=wrapper exec "${process.execPath}" "$@"\n`);
chmodSync(wrapper, 0o755);

const start = (extra) =>
  startService({ root, script: 'says.mjs', ready: { stdout: /ready via (\w+)/ }, ...extra });

describe('a service started on a named node binary', () => {
  it('runs on the binary given, flags and script after it', async () => {
    const service = await start({ node: wrapper, flags: ['--no-warnings'] });
    await service.stop();
    expect(service.url).toBe('wrapper');
  });

  it('runs on the node running the bench when none is named', async () => {
    const service = await start({});
    await service.stop();
    expect(service.url).toBe('undefined');
  });

  it.each([
    ['render', renderSide],
    ['relay', relaySide],
  ])('is what <L>_NODE names for a %s side, and nothing otherwise', (_name, sideFromEnv) => {
    expect(sideFromEnv({ B: '/b', B_NODE: '/opt/node-26/bin/node' }, 'B', '.').node).toBe(
      '/opt/node-26/bin/node',
    );
    expect(sideFromEnv({ A: '/a' }, 'A', '.')).not.toHaveProperty('node');
  });
});

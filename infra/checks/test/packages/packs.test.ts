/**
 * `npm run pack`'s tarballs are what an app outside this repository installs: each holds what
 * its manifest promises (exports with types, bin, LICENSE) and nothing else (no tests, no
 * sources), declares what its code imports, and, installed into a folder outside the
 * repository, runs: @strata/web imports, and the render service serves an app installed there.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  publishableWorkspaces,
  type PackageManifest,
} from '../../../../scripts/pack/publishable.mjs';
import { workspaceDirs } from '../../../../scripts/workspaces.mjs';
import { tarballProblems, type PackedFile } from '../../src/packages/tarball-problems.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const publishable = publishableWorkspaces(root);
const packs = mkdtempSync(join(tmpdir(), 'strata-packs-'));
// The app's own project: outside the repository, so nothing resolves from its node_modules.
const outside = mkdtempSync(join(tmpdir(), 'strata-outside-app-'));
let packOutput = '';

/** The files of a tarball, as `npm pack` wrote it (code files with their text). */
async function tarballFiles(tarball: string): Promise<PackedFile[]> {
  const into = join(packs, 'extracted', tarball);
  mkdirSync(into, { recursive: true });
  await run('tar', ['-xzf', join(packs, tarball), '-C', into]);
  const packageDir = join(into, 'package');
  return readdirSync(packageDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name).slice(packageDir.length + 1);
      const text = /\.(m?js|d\.ts|json)$/.test(path)
        ? readFileSync(join(packageDir, path), 'utf8')
        : undefined;
      return { path, text };
    });
}

const tarballOf = ({ name, version }: PackageManifest) =>
  `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

beforeAll(async () => {
  ({ stdout: packOutput } = await run('node', ['scripts/pack-packages.mjs', '--no-build', packs], {
    cwd: root,
  }));
}, 300_000);

afterAll(() => {
  rmSync(packs, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('the publishable packages', () => {
  it('are the web runtime, the render service and what they use at run time', () => {
    const names = publishable.map(({ manifest }) => manifest.name);
    expect(names).toEqual(expect.arrayContaining(['@strata/web', '@strata/render']));
    const ownDependencies = publishable.flatMap(({ manifest }) =>
      Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@strata/')),
    );
    expect(ownDependencies.length).toBeGreaterThan(0);
    expect(ownDependencies.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('leave React and zod to the app: peers where they are used, never dependencies of their own', () => {
    // A second React under a platform package renders the app's components with another
    // React's hooks (a 500 at the first hook) as soon as the app's React is another version; a
    // second zod puts two zods in one config schema (the app's z.object around @strata/config's
    // parsers) and types the app's action schemas against another zod's declarations.
    const shared = ['react', 'react-dom', 'zod'];
    const ownCopies = publishable.flatMap(({ manifest }) =>
      shared
        .filter((name) => manifest.dependencies?.[name])
        .map((name) => `${manifest.name}: ${name}`),
    );
    expect(ownCopies).toEqual([]);
    const peersOf = (name: string) => {
      const { manifest } = publishable.find((entry) => entry.manifest.name === name)!;
      const tested = manifest.devDependencies ?? {};
      return Object.fromEntries(
        Object.keys(manifest.peerDependencies ?? {})
          .filter((peer) => shared.includes(peer))
          .map((peer) => [peer, `^${tested[peer]}`]),
      );
    };
    for (const { manifest } of publishable)
      expect(manifest.peerDependencies ?? {}).toMatchObject(peersOf(manifest.name));
    expect(Object.keys(peersOf('@strata/web'))).toEqual(shared);
    for (const name of ['@strata/config', '@strata/redis', '@strata/telemetry', '@strata/render'])
      expect(Object.keys(peersOf(name))).toEqual(['zod']);
  });

  it('leave the apps, the tests and the checks private', () => {
    const internal = workspaceDirs(root).filter((dir) =>
      /^(apps\/|e2e$|infra\/checks$|packages\/testing$)/.test(dir),
    );
    expect(internal).toEqual(expect.arrayContaining(['apps/catalog', 'apps/notes', 'e2e']));
    for (const dir of internal)
      expect(JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).private).toBe(true);
  });

  it('are packed one line each', () => {
    for (const { manifest } of publishable)
      expect(packOutput).toContain(`[pack] ${manifest.name}@${manifest.version} → `);
  });

  it.each(publishable.map(({ manifest }) => [manifest.name, manifest] as const))(
    '%s: its tarball holds what it declares, under Apache-2.0, and nothing else',
    async (_name, manifest) => {
      const files = await tarballFiles(tarballOf(manifest));
      expect(tarballProblems(manifest, files)).toEqual([]);
      expect(manifest.license).toBe('Apache-2.0');
      const packedLicense = readFileSync(
        join(packs, 'extracted', tarballOf(manifest), 'package/LICENSE'),
        'utf8',
      );
      expect(packedLicense).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
    },
  );
});

describe('installed outside the repository', () => {
  let appTarball = '';

  beforeAll(async () => {
    // The notes app, packed as its own project would be (it is private: packed, never published).
    const { stdout } = await run(
      'npm',
      [
        'pack',
        '--json',
        '--ignore-scripts',
        '-w',
        '@strata/app-notes',
        '--pack-destination',
        packs,
      ],
      { cwd: root },
    );
    appTarball = join(packs, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    const tarballs = publishable.map(({ manifest }) => join(packs, tarballOf(manifest)));
    await run('npm', ['init', '-y'], { cwd: outside });
    // Registry packages come from npm's cache (filled by `npm ci`); --offline would also need
    // their metadata cached, which `npm ci` does not keep, so npm may check it.
    await run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs, appTarball],
      { cwd: outside },
    );
  }, 300_000);

  it('imports @strata/web and its server and client entries', async () => {
    const { stdout } = await run(
      'node',
      [
        '--input-type=module',
        '-e',
        `const web = await import('@strata/web');
         const server = await import('@strata/web/server');
         console.log(JSON.stringify([typeof web.createRouteTable, typeof server, Object.keys(web).length]));`,
      ],
      { cwd: outside },
    );
    const [createRouteTable, server, count] = JSON.parse(stdout) as [string, string, number];
    expect([createRouteTable, server]).toEqual(['function', 'object']);
    expect(count).toBeGreaterThan(5);
  });

  it('serves an app installed beside the render service, with its own browser bundle', async () => {
    const port = await freePort();
    const render = spawn(join(outside, 'node_modules/.bin/strata-render'), [], {
      cwd: outside,
      env: renderEnv({ RENDER_APP: '@strata/app-notes', RENDER_PORT: String(port) }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    render.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    try {
      const origin = `http://127.0.0.1:${port}`;
      await waitForReady(origin, () => stderr);
      const page = await fetch(`${origin}/notes`);
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain('<title>Strata Notes</title>');
      const bundle = JSON.parse(
        readFileSync(
          join(outside, 'node_modules/@strata/app-notes/dist/public/assets/manifest.json'),
          'utf8',
        ),
      ) as { client: string };
      expect(html).toContain(`src="${bundle.client}"`);
      expect((await fetch(`${origin}${bundle.client}`)).status).toBe(200);
    } finally {
      render.kill('SIGTERM');
    }
  });

  it('refuses to start without the app, saying where it looked', async () => {
    const result = await run(join(outside, 'node_modules/.bin/strata-render'), [], {
      cwd: outside,
      env: renderEnv({ RENDER_APP: '@acme/shop', RENDER_PORT: '0' }),
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(78);
    expect(result.stderr).toContain(
      `RENDER_APP: @acme/shop is not installed: looked for it in ${outside}/node_modules/@acme/shop`,
    );
  });
});

/** Only what the service needs: no NODE_ENV (not production), a salt of its own, quiet logs. */
function renderEnv(own: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ACTION_SALT: 'outside-app-test-salt',
    LOG_LEVEL: 'warn',
    ...own,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForReady(origin: string, logs: () => string): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const ready = await fetch(`${origin}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the render service did not become ready:\n${logs()}`);
}

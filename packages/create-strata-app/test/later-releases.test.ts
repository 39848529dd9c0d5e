/**
 * An app on later React and zod releases than the platform is tested with: its React and its zod
 * are the only ones installed, so its pages render with its React (a component's hook works) and
 * its settings parse with its zod. No registry has releases later than the ones this repository
 * installs, so they are made here: each installed package with only its version raised, packed,
 * and installed by the app from that tarball.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStrata, type AppProcess } from './harness/app-process.js';
import { postMessage } from './harness/app-requests.js';
import { scaffoldFromPacks } from './harness/consumer-app.js';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const LATER = { react: '19.99.0', zod: '4.99.0' } as const;
const folder = mkdtempSync(join(tmpdir(), 'strata-later-releases-'));
const env = { PATH: process.env['PATH'], HOME: process.env['HOME'], LOG_LEVEL: 'warn' };
let app = '';
let server: AppProcess | undefined;

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { version: string };

/** The repository's `name` as release `version`, packed into `into`; the tarball's file name. */
async function releasedAs(name: string, version: string, into: string): Promise<string> {
  const copy = join(folder, `${name}-later`);
  cpSync(join(repository, 'node_modules', name), copy, { recursive: true });
  const manifestPath = join(copy, 'package.json');
  writeFileSync(manifestPath, JSON.stringify({ ...readJson(manifestPath), version }, null, 2));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', into], {
    cwd: copy,
    env,
  });
  return (JSON.parse(stdout) as { filename: string }[])[0]!.filename;
}

/** The scaffolded layout, with a hook called from the app's own React. */
function layoutCallingAHook(): void {
  const path = join(app, 'src/pages/site-layout.tsx');
  const source = readFileSync(path, 'utf8')
    .replace(
      "import type { ReactNode } from 'react';",
      "import { useId, type ReactNode } from 'react';",
    )
    .replace(/(export function SiteLayout\([^)]*\) \{\n)/, '$1  const id = useId();\n')
    .replace('<main>{children}</main>', '<main id={id}>{children}</main>');
  // Set-up, not a finding: the scaffold's layout no longer reads as this edit expects.
  if (!source.includes('<main id={id}>'))
    throw new Error(`could not add a hook to ${path}: its SiteLayout or <main> changed`);
  writeFileSync(path, source);
}

beforeAll(async () => {
  app = await scaffoldFromPacks(folder, env);
  const manifestPath = join(app, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const [name, version] of Object.entries(LATER))
    manifest.dependencies[name] =
      `file:packs/${await releasedAs(name, version, join(app, 'packs'))}`;
  // Built and started only: its test and type-checking tools stay out of the install.
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, devDependencies: {} }, null, 2));
  layoutCallingAHook();
  // Registry packages come from npm's cache (filled by the repository's `npm ci`); npm may still
  // check their metadata, as a developer's `npm install` does, so it gets the whole environment
  // (a machine's registry may need its CA certificates or proxy settings).
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app });
  await run('npx', ['strata', 'build'], { cwd: app, env });
  server = await startStrata(['npx', 'strata'], 'start', app, env);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('an app on later React and zod releases than the platform’s', () => {
  it('installs one React and one zod, its own', () => {
    for (const [name, version] of Object.entries(LATER))
      expect(readJson(join(app, 'node_modules', name, 'package.json')).version).toBe(version);
    const platform = readdirSync(join(app, 'node_modules/@strata'));
    expect(platform).toEqual(expect.arrayContaining(['web', 'render', 'config']));
    const ownCopies = platform.flatMap((dir) =>
      ['react', 'react-dom', 'zod']
        .filter((name) => existsSync(join(app, 'node_modules/@strata', dir, 'node_modules', name)))
        .map((name) => `@strata/${dir}: ${name}`),
    );
    expect(ownCopies).toEqual([]);
  });

  it("starts (the render service's settings parsed with the app's zod) and renders a page whose layout calls a hook", async () => {
    const response = await fetch(`${server!.origin}/`);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toMatch(/<main id="[^"]+">/);
    expect(html).toContain('Welcome to your Strata app');
  });

  it("runs its action, whose input schema is the app's zod's", async () => {
    const posted = await postMessage(server!.origin, 'Hello from a later zod');
    expect(posted.status).toBe(303);
    expect(await (await fetch(`${server!.origin}/`)).text()).toContain('Hello from a later zod');
  });
});

/**
 * An app on a later React than the one the platform is tested with: its React is the only one
 * installed, so its pages render with it and a component's hook works. No registry has a React
 * later than the one this repository installs, so the later release is made here: the installed
 * React with only its version raised, packed, and installed by the app from that tarball.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStrata, type AppProcess } from './harness/app-process.js';
import { scaffoldFromPacks } from './harness/consumer-app.js';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const LATER = '19.99.0';
const folder = mkdtempSync(join(tmpdir(), 'strata-later-react-'));
const env = { PATH: process.env['PATH'], HOME: process.env['HOME'], LOG_LEVEL: 'warn' };
let app = '';
let server: AppProcess | undefined;

/** The repository's React as release `version`, packed into `into`; the tarball's file name. */
async function reactReleasedAs(version: string, into: string): Promise<string> {
  const copy = join(folder, 'react-later');
  cpSync(join(repository, 'node_modules/react'), copy, { recursive: true });
  const manifestPath = join(copy, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, version }, null, 2));
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
  expect(source).toContain('useId()');
  writeFileSync(path, source);
}

beforeAll(async () => {
  app = await scaffoldFromPacks(folder, env);
  const tarball = await reactReleasedAs(LATER, join(app, 'packs'));
  const manifestPath = join(app, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    dependencies: Record<string, string>;
  };
  manifest.dependencies['react'] = `file:packs/${tarball}`;
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

describe('an app on a later React than the platform’s', () => {
  it('installs one React, its own', () => {
    const installed = JSON.parse(
      readFileSync(join(app, 'node_modules/react/package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe(LATER);
    expect(existsSync(join(app, 'node_modules/@strata/web/node_modules/react'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/@strata/web/node_modules/react-dom'))).toBe(false);
  });

  it('renders a page whose layout calls a hook', async () => {
    const response = await fetch(`${server!.origin}/`);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toMatch(/<main id="[^"]+">/);
    expect(html).toContain('Welcome to your Strata app');
  });
});

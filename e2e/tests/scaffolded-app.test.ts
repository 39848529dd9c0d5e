/**
 * The app create-strata-app writes, in Chromium: served by `strata start`, its links prefetch
 * and navigate without reloading the document, the streamed page streams in, and the form posts
 * the action in place; served by `strata dev`, the open page reloads with an edit and shows a
 * loader's error in an overlay. The app is scaffolded outside the repository and runs on this
 * repository's packages (its node_modules is a link to the repository's).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffold } from '../../packages/create-strata-app/src/scaffold.js';
import {
  startStrata,
  type AppProcess,
} from '../../packages/create-strata-app/test/harness/app-process.js';
import { editSource } from '../../packages/create-strata-app/test/harness/page-edits.js';
import { launchBrowser, openPage } from '../harness/browser.js';
import { isPrefetch, load, marker, pathOf, recordRequests } from '../harness/router-page.js';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../', import.meta.url));
const strata = join(repository, 'node_modules/.bin/strata');
const folder = mkdtempSync(join(tmpdir(), 'strata-browser-app-'));
const env = { PATH: process.env['PATH'], HOME: process.env['HOME'], LOG_LEVEL: 'warn' };
let browser: Browser;

/** A scaffolded app in `<folder>/<name>`, on the repository's packages. */
function scaffoldApp(name: string): string {
  const { directory } = scaffold({ target: join(folder, name) });
  symlinkSync(join(repository, 'node_modules'), join(directory, 'node_modules'));
  return directory;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('served by strata start', () => {
  let server: AppProcess;

  beforeAll(async () => {
    const app = scaffoldApp('production-app');
    await run(strata, ['build'], { cwd: app, env });
    server = await startStrata([strata], 'start', app, env);
  });
  afterAll(() => server?.stop());

  it('prefetches a link, then navigates to the streamed page without a reload', async () => {
    const { page, problems } = await openPage(browser);
    const requests = recordRequests(page);
    await load(page, `${server.origin}/`);
    const link = page.getByRole('link', { name: 'Streamed page' });
    await link.hover();
    await expect
      .poll(() => requests.all.filter(isPrefetch).map(pathOf), { timeout: 10_000 })
      .toContain('/slow');
    await link.click();
    await page.getByText('Sunny, with a chance of streamed HTML.').waitFor();
    expect(await page.locator('h1').textContent()).toBe('A streamed page');
    expect(await marker(page)).toBe('same document');
    // The first load was the only document load.
    expect(requests.documents()).toEqual(['GET /']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('posts the action in place and shows the new message', async () => {
    const { page, problems } = await openPage(browser);
    await load(page, `${server.origin}/`);
    await page.getByLabel('Message').fill('Posted from Chromium');
    await page.getByRole('button', { name: 'Post' }).click();
    await page.getByText('Posted from Chromium').waitFor();
    expect(await marker(page)).toBe('same document');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('served by strata dev', () => {
  let server: AppProcess;
  let app: string;

  beforeAll(async () => {
    app = scaffoldApp('dev-app');
    server = await startStrata([strata], 'dev', app, env);
  });
  afterAll(() => server?.stop());

  it('reloads the open page after an edit', async () => {
    const { page } = await openPage(browser);
    await load(page, `${server.origin}/`);
    editSource(
      app,
      'src/pages/home-page.tsx',
      'Welcome to your Strata app',
      'Edited in the browser test',
    );
    await page
      .getByRole('heading', { name: 'Edited in the browser test' })
      .waitFor({ timeout: 10_000 });
    // A reload: the marker went with the old document.
    expect(await marker(page)).toBeUndefined();
    await page.close();
  });

  it('shows a loader’s error in an overlay', async () => {
    const { page } = await openPage(browser);
    await load(page, `${server.origin}/`);
    editSource(
      app,
      'src/pages/slow-page.tsx',
      'const servedAt',
      "throw new Error('the loader broke');\n    const servedAt",
    );
    await expect
      .poll(
        async () => {
          await page.goto(`${server.origin}/slow`);
          return page
            .locator('#strata-dev-overlay')
            .textContent({ timeout: 3000 })
            .catch(() => '');
        },
        { timeout: 20_000 },
      )
      .toContain('the loader broke');
    await page.close();
  });
});

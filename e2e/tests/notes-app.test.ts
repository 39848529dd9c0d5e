/**
 * The second app, apps/notes, served by the real render service (RENDER_APP=@strata/app-notes,
 * no data service) in Chromium: its own document shell loads the notes bundle and hydrates, on
 * every page, and / redirects to the guestbook. Navigation is tested in notes-navigation, the
 * action and the error screen in notes-actions.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isHydrated, openPage } from '../harness/browser.js';
import { ROOT } from '../harness/processes.js';
import { h1s, routerReady } from '../harness/router-page.js';
import { useNotesStackAndBrowser } from '../harness/suite.js';

const suite = useNotesStackAndBrowser();
const url = (path: string) => `${suite.stack().renderUrl}${path}`;

/** The client bundle each app's document must load (written by the app's build: strata-bundle-client). */
const bundleOf = (app: string) =>
  (
    JSON.parse(readFileSync(`${ROOT}apps/${app}/dist/public/assets/manifest.json`, 'utf8')) as {
      client: string;
    }
  ).client;

describe('the notes app’s document', () => {
  it('is the notes app’s own shell, loads the notes bundle, and hydrates without errors', async () => {
    const { page, problems } = await openPage(suite.browser());
    const response = await page.goto(url('/notes'));
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Strata Notes');
    expect(await page.locator('header.masthead a.brand').textContent()).toBe('Strata Notes');
    expect(await h1s(page)).toEqual(['Guestbook']);
    expect(await page.locator('ul.notes li.note').count()).toBe(
      (await suite.stack().savedNotes()).length,
    );
    // The notes bundle, never the catalogue's (each app builds its own, in its package).
    const scripts = await page
      .locator('script[src]')
      .evaluateAll((elements) => elements.map((e) => e.getAttribute('src')));
    expect(scripts).toContain(bundleOf('notes'));
    expect(scripts).not.toContain(bundleOf('catalog'));
    await routerReady(page);
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    // React reports hydration mismatches asynchronously, as recoverable errors.
    await page.waitForTimeout(300);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(['/notes/1', '/notes/stats'])('hydrates %s without errors', async (path) => {
    const { page, problems } = await openPage(suite.browser());
    await page.goto(url(path));
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    await page.waitForTimeout(300);
    expect(await page.title()).toBe('Strata Notes');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('redirects / to the guestbook', async () => {
    const response = await fetch(url('/'), { redirect: 'manual' });
    expect(response.status).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(400);
    expect(new URL(response.headers.get('location') ?? '', url('/')).pathname).toBe('/notes');
  });
});

/**
 * Debian's Chromium through playwright-core (never a downloaded browser), with the flags this
 * offline machine needs, and a page that records console errors and uncaught exceptions.
 */
import { chromium, type Browser, type Page } from 'playwright-core';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium (fails with install advice when it is missing). */
export async function launchBrowser(): Promise<Browser> {
  try {
    return await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ARGS,
    });
  } catch (error) {
    throw new Error(
      'Could not start Chromium at /usr/bin/chromium (apt-get install -y chromium).',
      { cause: error },
    );
  }
}

/** A page plus everything it complained about. */
export interface WatchedPage {
  readonly page: Page;
  readonly problems: string[];
}

/** Opens a page that collects console errors and page errors. */
export async function openPage(browser: Browser): Promise<WatchedPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

/** Whether React has hydrated the document. */
export function isHydrated(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    Object.keys(document).some((key) => key.startsWith('__reactContainer$')),
  );
}

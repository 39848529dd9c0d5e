// What both router benches need: the built data and render services of one checkout on free
// loopback ports (bench/kit), Debian's Chromium with the project's flags, and a nearest-rank
// quantile (bench/kit/stats.mjs).
import { chromium } from 'playwright-core';
import { freePort } from '../../kit/ports.mjs';
import { startService } from '../../kit/service.mjs';
import { benchPagesEnv } from '../../kit/bench-pages.mjs';

export { nearestRank as quantile } from '../../kit/stats.mjs';

/** Starts the built services of the checkout at `root` (PGlite in memory, seeded). */
export async function startStack(root) {
  const dataPort = await freePort();
  const renderPort = await freePort();
  const base = `http://127.0.0.1:${renderPort}`;
  // Not in production mode, as the router runs were measured.
  const common = { root, production: false };
  const data = await startService({
    ...common,
    script: 'services/data/dist/main.js',
    env: { DATA_PORT: String(dataPort), DATA_DIR: 'memory://', LOG_LEVEL: 'warn' },
    ready: { tcp: { host: '127.0.0.1', port: dataPort } },
  });
  const render = await startService({
    ...common,
    script: 'services/render/dist/main.js',
    env: {
      RENDER_PORT: String(renderPort),
      DATA_SERVICE_ADDRESS: `127.0.0.1:${dataPort}`,
      ACTION_SALT: 'bench-router-salt',
      ...benchPagesEnv(root),
      LOG_LEVEL: 'warn',
    },
    ready: { http: `${base}/healthz` },
  });
  return { base, stop: () => Promise.all([render.stop(), data.stop()]) };
}

export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Clicks `selector` and resolves with the ms until a visible <h1> reads `heading` (a
 * MutationObserver in the page). With `dwellMs`, the pointer first rests on the link that long,
 * as a person's does before clicking (intent: the router renders the page ahead).
 */
export async function timeClick(page, { selector, heading, dwellMs }) {
  if (dwellMs !== undefined) {
    await page.hover(selector);
    await page.waitForTimeout(dwellMs);
  }
  return page.evaluate(
    ({ link, text }) =>
      new Promise((resolve) => {
        const started = performance.now();
        // In the DOM and not inside a hidden render (React hides one with an inline
        // display: none); checkVisibility() would force a style recalculation and time that too.
        const hidden = (element) =>
          element !== null && (element.style?.display === 'none' || hidden(element.parentElement));
        const shown = () => {
          const h1 = document.querySelector('h1');
          return h1?.textContent === text && !hidden(h1);
        };
        new MutationObserver(() => shown() && resolve(performance.now() - started)).observe(
          document,
          { subtree: true, childList: true, characterData: true, attributes: true },
        );
        document
          .querySelector(link)
          ?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
      }),
    { link: selector, text: heading },
  );
}

/** Settles when the page's viewport prefetch of /bench/items has arrived in full. */
export const listPrefetched = (page) =>
  page
    .waitForResponse(
      (r) =>
        r.request().headers()['strata-prefetch'] !== undefined &&
        new URL(r.url()).pathname === '/bench/items',
    )
    .then((response) => response.finished());

// What both router benches need: the built data and render services of one checkout on free
// loopback ports, Debian's Chromium with the project's flags, and a nearest-rank quantile.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { benchPagesEnv } from '../../kit/bench-pages.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

// A port someone listens on cannot be bound again.
const listening = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });

async function start(root, entry, env, ready) {
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    if (await ready().catch(() => false)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${root}${entry} did not start`);
}

/** Starts the built services of the checkout at `root` (PGlite in memory, seeded). */
export async function startStack(root) {
  const dataPort = await freePort();
  const renderPort = await freePort();
  const base = `http://127.0.0.1:${renderPort}`;
  const data = await start(
    root,
    'services/data/dist/main.js',
    { DATA_PORT: String(dataPort), DATA_DIR: 'memory://' },
    () => listening(dataPort),
  );
  const render = await start(
    root,
    'services/render/dist/main.js',
    {
      RENDER_PORT: String(renderPort),
      DATA_SERVICE_ADDRESS: `127.0.0.1:${dataPort}`,
      ACTION_SALT: 'bench-router-salt',
      ...benchPagesEnv(root),
    },
    () => fetch(`${base}/healthz`).then((response) => response.ok),
  );
  return { base, stop: () => [render, data].forEach((child) => child.kill('SIGTERM')) };
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

export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

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

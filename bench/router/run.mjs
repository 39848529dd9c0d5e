// Navigation timing in Debian's Chromium against the built services (see RESULTS.md):
// click → new content for a prefetched link (clicked at once, and after the pointer rested on
// it for DWELL_MS, default 200), a navigation nothing prefetched, and a full page load; payload
// bytes per navigation; the client bundle's gzip size. ROUNDS (default 15).
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { launchChromium, listPrefetched, quantile, startStack, timeClick } from './lib/stack.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const DWELL_MS = Number(process.env.DWELL_MS ?? 200);
const POINTER_FIRST = 'prefetched, pointer on the link first';
const stack = await startStack(ROOT);
const base = stack.base;
console.log('[bench] data and render services started');
const browser = await launchChromium();

async function measure(kind) {
  const page = await browser.newPage();
  // Bodies are read before the page closes (a fast navigation used to close it first).
  const bodies = [];
  page.on('response', (response) => {
    if (
      response.request().headers()['strata-payload'] === '1' &&
      !response.request().headers()['strata-prefetch']
    )
      bodies.push(response.finished().then(() => response.body().catch(() => Buffer.alloc(0))));
  });
  const prefetched = listPrefetched(page);
  await page.goto(`${base}/bench/items/1`);
  await page.waitForFunction(() => window.__strata_router !== undefined);
  const prefetchedKind = kind === 'prefetched' || kind === POINTER_FIRST;
  if (prefetchedKind) {
    // The link is in the viewport, so it was prefetched; wait for that answer to finish.
    await prefetched;
    await page.waitForTimeout(200);
  } else prefetched.catch(() => undefined);
  const target = kind === 'not prefetched' ? '/bench/items/777' : '/bench/items';
  const marker = kind === 'not prefetched' ? 'Item 777' : 'Items';
  const elapsed = prefetchedKind
    ? await timeClick(page, {
        selector: 'article a',
        heading: marker,
        ...(kind === POINTER_FIRST && { dwellMs: DWELL_MS }),
      })
    : await page
        .evaluate(
          ({ to, heading, full }) =>
            new Promise((resolve) => {
              const started = performance.now();
              const done = () => document.querySelector('h1')?.textContent === heading;
              new MutationObserver(() => done() && resolve(performance.now() - started)).observe(
                document,
                { subtree: true, childList: true, characterData: true },
              );
              if (full) {
                sessionStorage.setItem('t0', String(performance.timeOrigin + started));
                location.assign(to);
              } else window.__strata_router.navigate(to);
            }),
          { to: target, heading: marker, full: kind === 'full page load' },
        )
        .catch(() => null);
  let ms = elapsed;
  if (kind === 'full page load') {
    await page.waitForSelector('h1:has-text("Items")');
    ms = await page.evaluate(() => {
      const t0 = Number(sessionStorage.getItem('t0'));
      const h1 = performance
        .getEntriesByType('paint')
        .find((e) => e.name === 'first-contentful-paint');
      return (
        (h1 ? performance.timeOrigin + h1.startTime : performance.timeOrigin + performance.now()) -
        t0
      );
    });
  }
  const payloadBytes = (await Promise.all(bodies)).reduce((sum, body) => sum + body.length, 0);
  await page.close();
  return { ms, payloadBytes };
}

const rows = [];
for (const kind of ['prefetched', POINTER_FIRST, 'not prefetched', 'full page load']) {
  const samples = [];
  const bytes = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { ms, payloadBytes } = await measure(kind);
    samples.push(ms);
    bytes.push(payloadBytes);
  }
  rows.push({
    kind,
    p50: quantile(samples, 0.5),
    p90: quantile(samples, 0.9),
    max: Math.max(...samples),
    payloadBytes: quantile(bytes, 0.5),
  });
  console.log(`[bench] ${kind}: p50 ${quantile(samples, 0.5).toFixed(1)} ms`);
}
await browser.close();
stack.stop();

// What a page loads to hydrate and navigate (the entry and the chunks it imports statically,
// from the manifest) and, apart, the chunks loaded lazily (the telemetry SDK).
const assets = `${ROOT}apps/catalog/dist/public/assets/`;
const manifest = JSON.parse(readFileSync(`${assets}manifest.json`, 'utf8'));
const fileOf = (url) => url.split('/').pop();
const main = fileOf(manifest.client);
const shared = (manifest.shared ?? []).map(fileOf);
const size = (file) => {
  const raw = readFileSync(assets + file);
  return { file, bytes: raw.length, gzip: gzipSync(raw, { level: 6 }).length };
};
const lazy = readdirSync(assets).filter(
  (name) => name.endsWith('.js') && name !== main && !shared.includes(name),
);
console.log(
  JSON.stringify(
    {
      rounds: ROUNDS,
      dwellMs: DWELL_MS,
      rows,
      bundle: size(main),
      sharedChunks: shared.map(size),
      lazyChunks: lazy.map(size),
    },
    null,
    2,
  ),
);

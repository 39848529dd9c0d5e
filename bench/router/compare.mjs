// Prefetched navigation, click → new <h1> in the DOM, for two builds side by side: the checkout
// this file is in and a baseline checkout (BASELINE=/path, built). Rounds alternate between
// the two on one Chromium, so machine load falls on both alike. ROUNDS (default 25).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';

const ROUNDS = Number(process.env.ROUNDS ?? 25);
const BASELINE = process.env.BASELINE;
if (!BASELINE) throw new Error('BASELINE=/path/to/a/built/checkout is required');
const CANDIDATE = new URL('../../', import.meta.url).pathname;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const listening = (port) =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(true));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
  });
async function start(root, entry, env, probe) {
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    if (await probe().catch(() => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${root}${entry} did not start`);
}
async function stack(root) {
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
    },
    () => fetch(`${base}/healthz`).then((r) => r.ok),
  );
  return { base, stop: () => [render, data].forEach((c) => c.kill('SIGTERM')) };
}
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function prefetchedClick(browser, base) {
  const page = await browser.newPage();
  let moved = 0;
  page.on('request', (request) => {
    const headers = request.headers();
    if (headers['strata-payload'] === '1' && !headers['strata-prefetch']) moved += 1;
  });
  const prefetched = page.waitForResponse(
    (r) =>
      r.request().headers()['strata-prefetch'] !== undefined &&
      new URL(r.url()).pathname === '/bench/items',
  );
  await page.goto(`${base}/bench/items/1`);
  await page.waitForFunction(() => window.__strata_router !== undefined);
  await (await prefetched).finished();
  await page.waitForTimeout(200);
  const ms = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const started = performance.now();
        new MutationObserver(
          () =>
            document.querySelector('h1')?.textContent === 'Items' &&
            resolve(performance.now() - started),
        ).observe(document, { subtree: true, childList: true, characterData: true });
        document
          .querySelector('article a')
          ?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
      }),
  );
  await page.close();
  return { ms, moved };
}

const stacks = { baseline: await stack(BASELINE), candidate: await stack(CANDIDATE) };
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});
const samples = { baseline: [], candidate: [] };
const requests = { baseline: 0, candidate: 0 };
for (let round = 0; round < ROUNDS; round++)
  for (const name of round % 2 ? ['candidate', 'baseline'] : ['baseline', 'candidate']) {
    const { ms, moved } = await prefetchedClick(browser, stacks[name].base);
    samples[name].push(ms);
    requests[name] += moved;
  }
await browser.close();
Object.values(stacks).forEach((s) => s.stop());
const row = (name) => ({
  p50: Number(quantile(samples[name], 0.5).toFixed(1)),
  p90: Number(quantile(samples[name], 0.9).toFixed(1)),
  navigationRequests: requests[name],
});
const result = { rounds: ROUNDS, baseline: row('baseline'), candidate: row('candidate') };
result.ratio = {
  p50: Number((result.candidate.p50 / result.baseline.p50).toFixed(2)),
  p90: Number((result.candidate.p90 / result.baseline.p90).toFixed(2)),
};
console.log(JSON.stringify(result, null, 2));

// Prefetched navigation, click → new <h1> in the DOM, for two builds side by side: the checkout
// this file is in and a baseline checkout (BASELINE=/path, built). Rounds alternate between
// the two on one Chromium, so machine load falls on both alike. ROUNDS (default 25);
// DWELL_MS=n rests the pointer on the link n ms before the click (unset: no pointer at all).
import { launchChromium, listPrefetched, quantile, startStack, timeClick } from './lib/stack.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 25);
const BASELINE = process.env.BASELINE;
if (!BASELINE) throw new Error('BASELINE=/path/to/a/built/checkout is required');
const CANDIDATE = new URL('../../', import.meta.url).pathname;
const DWELL_MS = process.env.DWELL_MS === undefined ? undefined : Number(process.env.DWELL_MS);

async function prefetchedClick(browser, base) {
  const page = await browser.newPage();
  let moved = 0;
  page.on('request', (request) => {
    const headers = request.headers();
    if (headers['strata-payload'] === '1' && !headers['strata-prefetch']) moved += 1;
  });
  const prefetched = listPrefetched(page);
  await page.goto(`${base}/bench/items/1`);
  await page.waitForFunction(() => window.__strata_router !== undefined);
  await prefetched;
  await page.waitForTimeout(200);
  const ms = await timeClick(page, {
    selector: 'article a',
    heading: 'Items',
    ...(DWELL_MS !== undefined && { dwellMs: DWELL_MS }),
  });
  await page.close();
  return { ms, moved };
}

const stacks = { baseline: await startStack(BASELINE), candidate: await startStack(CANDIDATE) };
const browser = await launchChromium();
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
const result = {
  rounds: ROUNDS,
  dwellMs: DWELL_MS ?? null,
  baseline: row('baseline'),
  candidate: row('candidate'),
};
result.ratio = {
  p50: Number((result.candidate.p50 / result.baseline.p50).toFixed(2)),
  p90: Number((result.candidate.p90 / result.baseline.p90).toFixed(2)),
};
console.log(JSON.stringify(result, null, 2));

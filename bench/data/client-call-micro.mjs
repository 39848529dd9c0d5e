#!/usr/bin/env node
// What the catalogue client costs a read, alone, in two builds side by side: `listItems` through
// @strata/catalog-client (request encoding, read retry, the call's span and histogram, the
// answer's fast decoder) over a transport that answers at once with a recorded ListItems answer
// of 20 items, so only the client's own work is timed; CPU µs per call from process.cpuUsage().
// Both builds run in this one process and their batches interleave (A B B A …), so drift in the
// machine's speed reaches both alike.
//
//   npm run build && A=/path/to/base B=. node bench/data/client-call-micro.mjs
//
// Env: A and B (built repo roots; both default to this repo), CALLS (20000 per batch),
// BATCHES (10 per side).
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encodeListItemsResponse } from '../../proto/dist/gen/strata/catalog/v1/catalog_service_fast_encoders.js';
import { bootstrapMedianInterval, median } from '../kit/stats.mjs';

const CALLS = Number(process.env.CALLS || 20_000);
const BATCHES = Number(process.env.BATCHES || 10);
const here = fileURLToPath(new URL('../..', import.meta.url));

// As the benchmark page lists them (ITEM_VIEW_BASIC: id, title, price, description).
const item = (id) => ({
  id,
  title: `Item ${id}`,
  priceCents: 1000 + id,
  categoryId: '',
  description: `The description of item ${id}, long enough to look like one.`,
  createTime: undefined,
  updateTime: undefined,
  version: 0,
});
const answer = encodeListItemsResponse({
  items: Array.from({ length: 20 }, (_, index) => item(index + 1)),
  nextPageToken: 'token',
  tags: ['items'],
});
if (!answer) throw new Error('the fast encoder refused the recorded answer');

/** A transport whose every unary call answers the recorded bytes. */
const transport = {
  unary: () => Promise.resolve(answer),
  serverStream: () => {
    throw new Error('no streams here');
  },
  addresses: () => ['recorded'],
  probe: async () => ({ reachable: 1, replicas: 1 }),
  close() {},
};
const request = { categoryId: '', query: '', pageSize: 20, pageToken: '', view: 2 };
const context = { metadata: { 'x-request-id': 'a'.repeat(32) } };

/** The client of the build at `root`, counting into a registry of that build's prom-client. */
async function clientOf(root) {
  const dist = join(root, 'packages/catalog-client/dist/index.js');
  const { createCatalogClient } = await import(pathToFileURL(dist).href);
  const { Registry } = createRequire(join(root, 'packages/metrics/package.json'))('prom-client');
  return createCatalogClient(transport, { metrics: new Registry() });
}

async function batch(client) {
  const before = process.cpuUsage();
  for (let call = 0; call < CALLS; call++) await client.listItems(request, context);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

const sides = ['A', 'B'].map((name) => ({ name, root: resolve(process.env[name] || here) }));
for (const side of sides) {
  side.client = await clientOf(side.root);
  side.perCall = [];
  await batch(side.client); // warm-up: JIT and the histogram's series
}
for (let round = 0; round < BATCHES; round++)
  for (const side of round % 2 ? [...sides].reverse() : sides)
    side.perCall.push(await batch(side.client));

const [a, b] = sides;
for (const side of sides)
  console.log(
    `${side.name} ${side.root}: ${median(side.perCall).toFixed(2)} µs CPU per listItems (median of ${BATCHES} batches of ${CALLS})`,
  );
const ratios = a.perCall.map((us, round) => b.perCall[round] / us);
const { low, high } = bootstrapMedianInterval(ratios);
console.log(
  `B÷A ${median(ratios).toFixed(3)} (median of per-round ratios; 90% interval ${low.toFixed(3)}–${high.toFixed(3)}; ` +
    `ratio of medians ${(median(b.perCall) / median(a.perCall)).toFixed(3)})`,
);

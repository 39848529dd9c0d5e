#!/usr/bin/env node
// What the catalogue client costs a read, alone: `listItems` through @strata/catalog-client
// (request encoding, read retry, the call's span and histogram, the answer's fast decoder) over a
// transport that answers at once with a recorded ListItems answer of 20 items, so only the
// client's own work is timed; CPU µs per call from process.cpuUsage(), in batches.
//
//   npm run build && node bench/data/client-call-micro.mjs
//
// Env: CALLS (20000 per batch), BATCHES (10).
import { Registry } from 'prom-client';
import { createCatalogClient } from '../../packages/catalog-client/dist/index.js';
import { encodeListItemsResponse } from '../../proto/dist/gen/strata/catalog/v1/catalog_service_fast_encoders.js';
import { median } from '../kit/stats.mjs';

const CALLS = Number(process.env.CALLS || 20_000);
const BATCHES = Number(process.env.BATCHES || 10);

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
const client = createCatalogClient(transport, { metrics: new Registry() });
const request = { categoryId: '', query: '', pageSize: 20, pageToken: '', view: 2 };
const context = { metadata: { 'x-request-id': 'a'.repeat(32) } };

async function batch() {
  const before = process.cpuUsage();
  for (let call = 0; call < CALLS; call++) await client.listItems(request, context);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

await batch(); // warm-up: JIT and the histogram's series
const perCall = [];
for (let round = 0; round < BATCHES; round++) perCall.push(await batch());
console.log(
  `catalogue client listItems: ${median(perCall).toFixed(2)} µs CPU per call (median of ${BATCHES} batches of ${CALLS}; ` +
    `${perCall.map((us) => us.toFixed(2)).join(' / ')})`,
);

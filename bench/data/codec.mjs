#!/usr/bin/env node
// Single-threaded cost of the protobuf work one gRPC call adds, on the real responses:
// ts-proto encode as the generated responseSerialize does it, decode as responseDeserialize
// does it, and the one-pass encoders the service registers as responseSerialize
// (proto/src/codecs, byte-identical check), for full and basic-view (ItemView BASIC)
// pages.
// Knobs: ITERATIONS_MS=1500 per measurement.  node bench/data/codec.mjs
import { isDeepStrictEqual } from 'node:util';
import { loadDataConfig, startDataService } from '@strata/data';
import {
  catalogServiceDefinition,
  decodeGetItemResponse,
  decodeListItemsResponse,
  GetItemResponse,
  ItemView,
  ListItemsRequest,
  ListItemsResponse,
} from '@strata/proto';
import pino from 'pino';

const shipped = catalogServiceDefinition();
const encodeListItemsResponse = shipped.listItems.responseSerialize;
const encodeGetItemResponse = shipped.getItem.responseSerialize;

const budget = Number(process.env.ITERATIONS_MS ?? 1500);
const service = await startDataService(
  loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
  pino({ level: 'silent' }),
);
const list = await service.catalog.listItems(ListItemsRequest.fromPartial({ pageSize: 100 }));
// The same page in the basic list view (id, title, price_cents, description only).
const basicList = await service.catalog.listItems(
  ListItemsRequest.fromPartial({ pageSize: 100, view: ItemView.ITEM_VIEW_BASIC }),
);
const one = await service.catalog.getItem({ id: 500 });
await service.stop();

function time(label, fn) {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budget) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
    now = performance.now();
  }
  const us = ((now - start) * 1000) / n;
  return { label, us: +us.toFixed(1) };
}

const rows = [];
const listBytes = Buffer.from(ListItemsResponse.encode(list).finish());
const oneBytes = Buffer.from(GetItemResponse.encode(one).finish());
const same = (a, b) => a && Buffer.compare(a, b) === 0;
if (!same(encodeListItemsResponse(list), listBytes))
  throw new Error('fast ListItems encoding differs');
if (!same(encodeGetItemResponse(one), oneBytes)) throw new Error('fast GetItem encoding differs');
if (!isDeepStrictEqual(decodeListItemsResponse(listBytes), ListItemsResponse.decode(listBytes)))
  throw new Error('gateway ListItems decoding differs');
const basicBytes = Buffer.from(ListItemsResponse.encode(basicList).finish());
if (!same(encodeListItemsResponse(basicList), basicBytes))
  throw new Error('fast basic ListItems encoding differs');
if (!isDeepStrictEqual(decodeListItemsResponse(basicBytes), ListItemsResponse.decode(basicBytes)))
  throw new Error('gateway basic ListItems decoding differs');

rows.push(
  time(`ListItemsResponse(100) encode, ts-proto (${listBytes.length} B)`, () =>
    Buffer.from(ListItemsResponse.encode(list).finish()),
  ),
);
rows.push(
  time('ListItemsResponse(100) encode, one-pass (shipped)', () => encodeListItemsResponse(list)),
);
rows.push(
  time('ListItemsResponse(100) decode, ts-proto (client side)', () =>
    ListItemsResponse.decode(listBytes),
  ),
);
rows.push(
  time('ListItemsResponse(100) decode, render gateway (hand-written)', () =>
    decodeListItemsResponse(listBytes),
  ),
);
rows.push(
  time(`ListItemsResponse(100) basic view encode, ts-proto (${basicBytes.length} B)`, () =>
    Buffer.from(ListItemsResponse.encode(basicList).finish()),
  ),
);
rows.push(
  time('ListItemsResponse(100) basic view encode, one-pass (shipped)', () =>
    encodeListItemsResponse(basicList),
  ),
);
rows.push(
  time('ListItemsResponse(100) basic view decode, ts-proto (client side)', () =>
    ListItemsResponse.decode(basicBytes),
  ),
);
rows.push(
  time('ListItemsResponse(100) basic view decode, render gateway (hand-written)', () =>
    decodeListItemsResponse(basicBytes),
  ),
);
rows.push(
  time(`GetItemResponse encode, ts-proto (${oneBytes.length} B)`, () =>
    Buffer.from(GetItemResponse.encode(one).finish()),
  ),
);
rows.push(time('GetItemResponse encode, one-pass (shipped)', () => encodeGetItemResponse(one)));
rows.push(
  time('GetItemResponse decode, ts-proto (client side)', () => GetItemResponse.decode(oneBytes)),
);

rows.push(
  time('GetItemResponse decode, render gateway (hand-written)', () =>
    decodeGetItemResponse(oneBytes),
  ),
);

console.log('| operation | µs/op |', '\n|---|---:|');
for (const r of rows) console.log(`| ${r.label} | ${r.us} |`);

// The fast codecs of two versions of @strata/proto as a kit A/B scenario, both in this process:
// the pages codec.mjs measures (from the data service), every operation timed on one side, then
// on the other. A side is a checkout with proto/dist built, or a git ref, built once into the
// drift guard's cache (bench/guard/baseline.mjs). Every operation is checked against ts-proto
// before it is timed.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { loadDataConfig, startDataService } from '@strata/data';
import * as current from '@strata/proto';
import pino from 'pino';
import { builtBaseline, resolveBaseline } from '../guard/baseline.mjs';
import { REPO } from '../kit/out.mjs';

export const name = 'codecs';
const OPERATIONS = [
  ['listEncode', 'ListItemsResponse(100) encode'],
  ['listDecode', 'ListItemsResponse(100) decode'],
  ['basicEncode', 'ListItemsResponse(100) basic encode'],
  ['basicDecode', 'ListItemsResponse(100) basic decode'],
  ['oneEncode', 'GetItemResponse encode'],
  ['oneDecode', 'GetItemResponse decode'],
];
export const metrics = OPERATIONS.map(([key, label]) => ({
  key,
  label: `${label} µs/op`,
  better: 'lower',
}));

const isDirectory = (path) => existsSync(path) && statSync(path).isDirectory();

/** One side from the environment: <L> a checkout with proto/dist built, or a git ref. */
export function sideFromEnv(env, label, defaultRoot) {
  const asked = env[label] || defaultRoot;
  return {
    root: isDirectory(asked) ? resolve(asked) : builtBaseline(REPO, resolveBaseline(REPO, asked)),
  };
}

export const plainSide = (root) => ({ root: resolve(root) });

/** The pages to encode and decode, read from an in-memory data service, as ts-proto has them. */
async function pages() {
  const service = await startDataService(
    loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
    pino({ level: 'silent' }),
  );
  const { ListItemsRequest, ItemView, ListItemsResponse, GetItemResponse } = current;
  try {
    const list = await service.catalog.listItems(ListItemsRequest.fromPartial({ pageSize: 100 }));
    const basic = await service.catalog.listItems(
      ListItemsRequest.fromPartial({ pageSize: 100, view: ItemView.ITEM_VIEW_BASIC }),
    );
    const one = await service.catalog.getItem({ id: 500 });
    const bytes = {
      list: Buffer.from(ListItemsResponse.encode(list).finish()),
      basic: Buffer.from(ListItemsResponse.encode(basic).finish()),
      one: Buffer.from(GetItemResponse.encode(one).finish()),
    };
    const decoded = {
      list: ListItemsResponse.decode(bytes.list),
      basic: ListItemsResponse.decode(bytes.basic),
      one: GetItemResponse.decode(bytes.one),
    };
    return { list, basic, one, bytes, decoded };
  } finally {
    await service.stop();
  }
}

/** The operations of one version by metric key, each checked against ts-proto first. */
function operations(proto, { list, basic, one, bytes, decoded }) {
  const { listItems, getItem } = proto.catalogServiceDefinition();
  const ops = {
    listEncode: [() => listItems.responseSerialize(list), bytes.list],
    listDecode: [() => proto.decodeListItemsResponse(bytes.list), decoded.list],
    basicEncode: [() => listItems.responseSerialize(basic), bytes.basic],
    basicDecode: [() => proto.decodeListItemsResponse(bytes.basic), basic],
    oneEncode: [() => getItem.responseSerialize(one), bytes.one],
    oneDecode: [() => proto.decodeGetItemResponse(bytes.one), decoded.one],
  };
  for (const [key, [run, expected]] of Object.entries(ops))
    if (!isDeepStrictEqual(run(), expected)) throw new Error(`${key} differs from ts-proto`);
  return Object.fromEntries(Object.entries(ops).map(([key, [run]]) => [key, run]));
}

/** µs per call of `fn`, run in batches for `seconds` after a warm-up. */
function microsecondsPerCall(fn, seconds) {
  for (let i = 0; i < 200; i++) fn();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < seconds * 1000) {
    for (let i = 0; i < 50; i++) fn();
    calls += 50;
    now = performance.now();
  }
  return ((now - start) * 1000) / calls;
}

/** Loads both versions; a measurement times every operation of one side for `duration` s each. */
export async function open(sides, { duration }) {
  const fixtures = await pages();
  const bySide = {};
  for (const [label, side] of Object.entries(sides)) {
    const proto = await import(pathToFileURL(join(side.root, 'proto/dist/index.js')).href);
    bySide[label] = operations(proto, fixtures);
  }
  return {
    measure: async (label) =>
      Object.fromEntries(
        Object.entries(bySide[label]).map(([key, run]) => [
          key,
          microsecondsPerCall(run, duration),
        ]),
      ),
    close: async () => {},
  };
}

#!/usr/bin/env node
// The fast codecs of two versions of @strata/proto in one process, alternating: `ref` (a commit;
// its proto/ is extracted and compiled under node_modules/.cache) against this checkout's
// proto/dist. Same pages as codec.mjs (from the data service); each round measures every
// operation on both versions, the order flipping every round; prints each side's median µs/op
// and the median of the per-round ratios (this checkout ÷ ref).
// Knobs: ROUNDS=6 ITERATIONS_MS=400 per measurement.
//   npm run build && node bench/data/codec-ab.mjs <ref>
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { loadDataConfig, startDataService } from '@strata/data';
import * as current from '@strata/proto';
import pino from 'pino';

const ref = process.argv[2];
if (!ref) throw new Error('usage: node bench/data/codec-ab.mjs <git ref of the baseline>');
const rounds = Number(process.env.ROUNDS ?? 6);
const budget = Number(process.env.ITERATIONS_MS ?? 400);
const root = resolve(import.meta.dirname, '../..');

function buildBaseline() {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' });
  const dir = join(root, 'node_modules/.cache/codec-ab', sha.trim());
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', ref, 'proto', 'tsconfig.base.json'], {
    cwd: root,
    maxBuffer: 1 << 28,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], {
    cwd: join(dir, 'proto'),
  });
  return join(dir, 'proto/dist/index.js');
}
const baseline = await import(pathToFileURL(buildBaseline()).href);

const service = await startDataService(
  loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
  pino({ level: 'silent' }),
);
const { ListItemsRequest, ItemView, ListItemsResponse, GetItemResponse } = current;
const list = await service.catalog.listItems(ListItemsRequest.fromPartial({ pageSize: 100 }));
const basic = await service.catalog.listItems(
  ListItemsRequest.fromPartial({ pageSize: 100, view: ItemView.ITEM_VIEW_BASIC }),
);
const one = await service.catalog.getItem({ id: 500 });
await service.stop();
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

/** The six operations on one version, each checked against ts-proto before it is timed. */
function operations(proto) {
  const { listItems, getItem } = proto.catalogServiceDefinition();
  const ops = {
    'ListItemsResponse(100) encode': [() => listItems.responseSerialize(list), bytes.list],
    'ListItemsResponse(100) decode': [
      () => proto.decodeListItemsResponse(bytes.list),
      decoded.list,
    ],
    'ListItemsResponse(100) basic encode': [() => listItems.responseSerialize(basic), bytes.basic],
    'ListItemsResponse(100) basic decode': [
      () => proto.decodeListItemsResponse(bytes.basic),
      basic,
    ],
    'GetItemResponse encode': [() => getItem.responseSerialize(one), bytes.one],
    'GetItemResponse decode': [() => proto.decodeGetItemResponse(bytes.one), decoded.one],
  };
  for (const [label, [run, expected]] of Object.entries(ops))
    if (!isDeepStrictEqual(run(), expected)) throw new Error(`${label} differs from ts-proto`);
  return Object.fromEntries(Object.entries(ops).map(([label, [run]]) => [label, run]));
}
const sides = { ref: operations(baseline), current: operations(current) };

function time(fn) {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budget) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
    now = performance.now();
  }
  return ((now - start) * 1000) / n;
}

const samples = {};
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ['ref', 'current'] : ['current', 'ref'];
  for (const label of Object.keys(sides.ref))
    for (const side of order) (samples[`${label}|${side}`] ??= []).push(time(sides[side][label]));
}
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
// The ratio per round (both sides measured back to back), then its median: load that drifts
// between rounds cancels out.
const ratio = (label) =>
  median(samples[`${label}|current`].map((after, i) => after / samples[`${label}|ref`][i]));
console.log(`| operation | ${ref} µs/op | this checkout µs/op | ratio (median per round) |`);
console.log('|---|---:|---:|---:|');
for (const label of Object.keys(sides.ref)) {
  const before = median(samples[`${label}|ref`]).toFixed(1);
  const after = median(samples[`${label}|current`]).toFixed(1);
  console.log(`| ${label} | ${before} | ${after} | ${ratio(label).toFixed(2)} |`);
}

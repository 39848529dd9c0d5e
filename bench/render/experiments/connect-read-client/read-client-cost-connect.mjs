#!/usr/bin/env node
// Client CPU per ListItems(100, basic view) read: the two clients of
// <repo>/bench/render/read-client-cost.mjs (grpc-js with the hand-written decoder, and the
// unary caller on node:http2 with the same decoder), imported from <repo> exactly as that
// script does, plus a third: @connectrpc/connect-node's gRPC transport (HTTP/2) with
// protobuf-es v2 generated code (./gen). One data service child (PGlite in memory), the
// clients alternating in one process, ROUNDS rounds. CPU µs/call is this process's
// user+system time ÷ calls, so it is the caller's cost only.
//
// Usage: node read-client-cost-connect.mjs
// Env: CALLS (3000 per client per round) CONCURRENCY (8) ROUNDS (4) DATA_PORT (50391)
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import {
  CatalogService,
  ListItemsRequestSchema,
} from './gen/strata/catalog/v1/catalog_service_pb.js';
import { ItemView as PbItemView } from './gen/strata/catalog/v1/catalog_pb.js';

const REPO = '<repo>';
const imp = (p) => import(pathToFileURL(path.join(REPO, p)).href);
const grpc = await imp('node_modules/@grpc/grpc-js/build/src/index.js');
const { ItemView, ListItemsRequest } = await imp('proto/dist/index.js');
const { FastReadCatalogClient, FastReadCatalogService } = await imp(
  'services/render/dist/gateway/wire/catalog-client.js',
);
const { createUnaryCaller } = await imp('services/render/dist/gateway/wire/unary-caller.js');

const CALLS = Number(process.env.CALLS || 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY || 8);
const ROUNDS = Number(process.env.ROUNDS || 4);
const PORT = Number(process.env.DATA_PORT || 50391);
const ADDRESS = `127.0.0.1:${PORT}`;

const portOpen = () =>
  new Promise((resolve) => {
    const socket = net.connect(PORT, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
if (await portOpen()) throw new Error(`port ${PORT} is in use`);
const data = spawn(process.execPath, ['services/data/dist/main.js'], {
  cwd: REPO,
  env: { ...process.env, DATA_PORT: String(PORT), DATA_HOST: '127.0.0.1', DATA_DIR: 'memory://' },
  stdio: 'ignore',
});
for (let waited = 0; !(await portOpen()); waited += 100) {
  if (waited > 60_000) throw new Error('the data service did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const request = ListItemsRequest.fromPartial({ pageSize: 100, view: ItemView.ITEM_VIEW_BASIC });
const metadataValues = { 'strata-trace-id': '0123456789abcdef0123456789abcdef' };
const viaGrpcJs = new FastReadCatalogClient(ADDRESS, grpc.credentials.createInsecure(), {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.enable_retries': 0,
  ...(process.env.GRPC_TUNED && {
    'grpc.enable_channelz': 0,
    'grpc.service_config_disable_resolution': 1,
  }),
});
const caller = createUnaryCaller(ADDRESS);
const method = FastReadCatalogService.listItems;

// Connect: createGrpcTransport always uses HTTP/2 (httpVersion is forced to "2" inside it).
// The session manager is the one createGrpcTransport would build itself from these options
// (no ping options, default node http2.connect options); it is passed in only so that the
// connection can be closed at the end (a Transport has no close()).
const baseUrl = `http://127.0.0.1:${PORT}`;
const sessionManager = new Http2SessionManager(baseUrl, {});
const viaConnect = createClient(
  CatalogService,
  createGrpcTransport({ baseUrl, httpVersion: '2', sessionManager }),
);
const connectRequest = create(ListItemsRequestSchema, {
  pageSize: 100,
  view: PbItemView.BASIC,
});

const clients = {
  'grpc-js': () =>
    new Promise((resolve, reject) => {
      const metadata = new grpc.Metadata();
      for (const [key, value] of Object.entries(metadataValues)) metadata.set(key, value);
      viaGrpcJs.listItems(request, metadata, { deadline: Date.now() + 2000 }, (error, answer) =>
        error ? reject(error) : resolve(answer),
      );
    }),
  'unary caller': async () =>
    method.responseDeserialize(
      await caller.call(method.path, method.requestSerialize(request), {
        deadlineMs: 2000,
        metadata: metadataValues,
      }),
    ),
  connect: () => viaConnect.listItems(connectRequest, { timeoutMs: 2000, headers: metadataValues }),
};

async function measure(call) {
  let started = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (started < CALLS) {
        started += 1;
        const answer = await call();
        if (answer.items.length !== 100) throw new Error(`got ${answer.items.length} items`);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    cpuUs: (used.user + used.system) / CALLS,
    perSec: CALLS / ((performance.now() - t0) / 1000),
  };
}

// Sanity: the three clients read the same page.
{
  const [a, b, c] = await Promise.all(Object.values(clients).map((call) => call()));
  const ids = (answer) => answer.items.map((item) => String(item.id)).join(',');
  if (ids(a) !== ids(b) || ids(a) !== ids(c)) throw new Error('the clients read different pages');
  console.error(
    `sanity: ${a.items.length} items, first id ${a.items[0].id} (connect: ${typeof c.items[0].id} ${c.items[0].id}, title ${JSON.stringify(c.items[0].title)}, description ${JSON.stringify(c.items[0].description)})`,
  );
}

const results = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
try {
  for (const call of Object.values(clients)) await measure(call); // warm all up
  for (let round = 1; round <= ROUNDS; round++)
    for (const [name, call] of round % 2
      ? Object.entries(clients)
      : Object.entries(clients).reverse()) {
      const result = await measure(call);
      results[name].push(result);
      console.error(
        `round ${round} ${name}: ${result.cpuUs.toFixed(0)} µs/call, ${result.perSec.toFixed(0)} calls/s`,
      );
    }
} finally {
  viaGrpcJs.close();
  caller.close();
  sessionManager.abort();
  data.kill('SIGTERM');
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const base = median(results['grpc-js'].map((r) => r.cpuUs));
console.log(
  `\nListItems(100, basic), ${CALLS} calls × ${ROUNDS} rounds, concurrency ${CONCURRENCY}\n`,
);
console.log('| client | CPU µs/call (median) | ÷ grpc-js | per round | calls/s (median) |');
console.log('|---|---:|---:|---|---:|');
for (const [name, rounds] of Object.entries(results)) {
  const cpu = median(rounds.map((r) => r.cpuUs));
  console.log(
    `| ${name} | ${cpu.toFixed(0)} | ${(cpu / base).toFixed(2)} | ${rounds.map((r) => r.cpuUs.toFixed(0)).join(' / ')} | ${median(rounds.map((r) => r.perSec)).toFixed(0)} |`,
  );
}

#!/usr/bin/env node
// Client CPU per ListItems(100, basic view) read: grpc-js with the contract's fast decoder
// (bench/lib/grpc-js-read-client.mjs, how the render service read before) against the catalogue
// client (@strata/catalog-client: gRPC on node:http2, the same decoder, what the render service
// uses). One data service child (PGlite in memory), the clients alternating in one process,
// ROUNDS rounds.
// CPU µs/call is this process's user+system time ÷ calls, so it is the caller's cost only.
//
// Usage: npm run build && node bench/render/read-client-cost.mjs
// Env: CALLS (3000 per client per round) CONCURRENCY (8) ROUNDS (4) DATA_PORT (a free port)
import path from 'node:path';
import { freePort } from '../kit/ports.mjs';
import { startService } from '../kit/service.mjs';
import { median } from '../kit/stats.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const imp = (p) => import(pathToFileURL(path.join(REPO, p)).href);
const grpc = await imp('node_modules/@grpc/grpc-js/build/src/index.js');
const { ItemView, ListItemsRequest } = await imp('proto/dist/index.js');
const { FastReadCatalogClient } = await import('../lib/grpc-js-read-client.mjs');
const { createCatalogClient, createGrpcTransport } = await imp(
  'packages/catalog-client/dist/index.js',
);

const CALLS = Number(process.env.CALLS || 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY || 8);
const ROUNDS = Number(process.env.ROUNDS || 4);
const PORT = Number(process.env.DATA_PORT) || (await freePort());
const ADDRESS = `127.0.0.1:${PORT}`;

// Not in production mode (its secrets checks), as the rows in RESULTS.md were measured.
const data = await startService({
  root: REPO,
  script: 'services/data/dist/main.js',
  production: false,
  env: { DATA_PORT: String(PORT), DATA_HOST: '127.0.0.1', DATA_DIR: 'memory://' },
  ready: { tcp: { host: '127.0.0.1', port: PORT } },
});

const request = ListItemsRequest.fromPartial({ pageSize: 100, view: ItemView.ITEM_VIEW_BASIC });
const metadataValues = { 'strata-trace-id': '0123456789abcdef0123456789abcdef' };
const viaGrpcJs = new FastReadCatalogClient(ADDRESS, grpc.credentials.createInsecure(), {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.enable_retries': 0,
});
const transport = createGrpcTransport(ADDRESS);
const catalogClient = createCatalogClient(transport, { deadlineMs: 2000 });
const clients = {
  'grpc-js': () =>
    new Promise((resolve, reject) => {
      const metadata = new grpc.Metadata();
      for (const [key, value] of Object.entries(metadataValues)) metadata.set(key, value);
      viaGrpcJs.listItems(request, metadata, { deadline: Date.now() + 2000 }, (error, answer) =>
        error ? reject(error) : resolve(answer),
      );
    }),
  'catalog client': () => catalogClient.listItems(request, { metadata: metadataValues }),
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

const results = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
try {
  for (const call of Object.values(clients)) await measure(call); // warm both up
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
  transport.close();
  await data.stop();
}
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

#!/usr/bin/env node
// What one read's round trip costs the caller, by protocol: the same 100-item ListItems answer
// fetched (a) through @strata/grpc-transport (gRPC on node:http2, with deadline, replica
// accounting and answer hand-off), (b) as a bare node:http2 stream with gRPC's headers, and
// (c) as an HTTP/1.1 POST on a keep-alive node:http agent (what a Connect-style unary read would
// cost). The server is a child process, so only the caller's CPU is counted (process.cpuUsage,
// per call, median of interleaved batches in rotating order). It answers at once: no database.
//
//   npm run build && node bench/data/transport-protocols.mjs
//
// Env: CALLS (2000 per batch), BATCHES (30), CONCURRENCY (8 calls in flight).
import { fork } from 'node:child_process';
import http from 'node:http';
import http2 from 'node:http2';
import { createGrpcTransport } from '../../packages/grpc-transport/dist/index.js';
import { encodeListItemsResponse } from '../../proto/dist/gen/strata/catalog/v1/catalog_service_fast_encoders.js';
import { median } from '../kit/stats.mjs';

const CALLS = Number(process.env.CALLS || 2000);
const BATCHES = Number(process.env.BATCHES || 30);
const CONCURRENCY = Number(process.env.CONCURRENCY || 8);
const PATH = '/strata.catalog.v1.CatalogService/ListItems';
const TRACE = { 'strata-trace-id': 'a'.repeat(32) };

if (process.argv[2] === '--serve') serve();
else await compare();

/** The child: the same answer bytes on an HTTP/2 (gRPC-framed) and an HTTP/1.1 listener. */
function serve() {
  const item = (id) => ({
    id,
    title: `Item ${id}`,
    priceCents: (id * 7919) % 100_000,
    categoryId: '',
    description: `Item ${id} is ${'amber basalt cedar dune '.repeat(8)}`.slice(0, 160),
    createTime: undefined,
    updateTime: undefined,
    version: 0,
  });
  const answer = Buffer.from(
    encodeListItemsResponse({
      items: Array.from({ length: 100 }, (_, index) => item(index + 1)),
      nextPageToken: '',
      tags: ['items'],
    }),
  );
  const framed = Buffer.alloc(5 + answer.length);
  framed.writeUInt32BE(answer.length, 1);
  answer.copy(framed, 5);
  const grpc = http2.createServer().on('stream', (stream) => {
    stream.resume().on('end', () => {
      stream.respond(
        { ':status': 200, 'content-type': 'application/grpc' },
        { waitForTrailers: true },
      );
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(framed);
    });
  });
  const plain = http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    request.resume().on('end', () => {
      response.writeHead(200, {
        'content-type': 'application/proto',
        'content-length': answer.length,
      });
      response.end(answer);
    });
  });
  grpc.listen(0, '127.0.0.1', () =>
    plain.listen(0, '127.0.0.1', () =>
      process.send({
        grpc: grpc.address().port,
        plain: plain.address().port,
        bytes: answer.length,
      }),
    ),
  );
}

async function compare() {
  const server = fork(new URL(import.meta.url).pathname, ['--serve']);
  const ports = await new Promise((resolve) => server.once('message', resolve));
  const request = Buffer.from([0x18, 0x64, 0x28, 0x02]); // pageSize 100, view basic
  const transport = createGrpcTransport(`127.0.0.1:${ports.grpc}`);
  const session = http2.connect(`http://127.0.0.1:${ports.grpc}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const collect = (source, resolve, reject) => {
    const chunks = [];
    source.on('data', (chunk) => chunks.push(chunk));
    source.on('error', reject);
    return () => resolve(Buffer.concat(chunks));
  };
  const sides = {
    'grpc-transport': () => transport.unary(PATH, request, { deadlineMs: 2000, metadata: TRACE }),
    'node:http2': () =>
      new Promise((resolve, reject) => {
        const stream = session.request({
          ':method': 'POST',
          ':path': PATH,
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': '2000m',
          ...TRACE,
        });
        stream.on('close', collect(stream, resolve, reject));
        stream.end(request);
      }),
    'node:http/1.1': () =>
      new Promise((resolve, reject) => {
        const headers = {
          'content-type': 'application/proto',
          'content-length': request.length,
          ...TRACE,
        };
        const options = {
          port: ports.plain,
          host: '127.0.0.1',
          path: PATH,
          method: 'POST',
          agent,
          timeout: 2000,
          headers,
        };
        const call = http.request(options, (response) =>
          response.on('end', collect(response, resolve, reject)),
        );
        call.on('error', reject).end(request);
      }),
  };
  async function batch(read) {
    const before = process.cpuUsage();
    let left = CALLS;
    const caller = async () => {
      while (left-- > 0) if ((await read()).length < ports.bytes) throw new Error('short answer');
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, caller));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / CALLS;
  }
  const names = Object.keys(sides);
  for (const name of names) await batch(sides[name]); // warm-up
  const perCall = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < BATCHES; round++)
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length];
      perCall[name].push(await batch(sides[name]));
    }
  const ours = perCall['grpc-transport'];
  console.log(
    `${ports.bytes}-byte answer, ${CONCURRENCY} in flight, ${BATCHES} batches of ${CALLS}:`,
  );
  for (const name of names) {
    const ratio = median(perCall[name].map((us, index) => us / ours[index]));
    console.log(
      `  ${name.padEnd(15)} ${median(perCall[name]).toFixed(1)} µs CPU per call, ${ratio.toFixed(2)}× grpc-transport`,
    );
  }
  transport.close();
  session.close();
  agent.destroy();
  server.kill();
}

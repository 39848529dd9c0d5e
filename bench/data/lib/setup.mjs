// Shared plumbing: knobs, engines (database + server child + in-process service), call factories.
import { execSync } from 'node:child_process';
import os from 'node:os';
import * as grpc from '@grpc/grpc-js';
import { loadDataConfig, startDataService } from '@strata/data';
import { CatalogServiceClient, ListItemsRequest } from '@strata/proto';
import pino from 'pino';
import { machineCpu } from './driver.mjs';
import { startServerChild } from './server-child.mjs';
// The render service's catalogue client (built): gRPC on node:http2 and the fast answer decoders.
import { createCatalogClient, createGrpcTransport } from '@strata/catalog-client';
import { FastReadCatalogClient } from '../../lib/grpc-js-read-client.mjs';

const num = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, got ${raw}`);
  return value;
};
const list = (name, fallback) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Every knob, from the environment. Durations in seconds. */
export function readKnobs() {
  const knobs = {
    DURATION: num('DURATION', 5),
    WARMUP: num('WARMUP', 2),
    CONCURRENCY: num('CONCURRENCY', 50),
    ROUNDS: num('ROUNDS', 6),
    ENGINES: list('ENGINES', 'pglite,postgres'),
    METHODS: list('METHODS', 'GetItem,ListItems100'),
    CHANNELS: num('CHANNELS', 1),
    // Client HTTP/2 flow-control window in bytes ('grpc-node.flow_control_window'); 0 = grpc-js default.
    FLOW_WINDOW: num('FLOW_WINDOW', 0),
    // PostgreSQL pool size for both the server child and the in-process service; 0 = service default (10).
    POOL_SIZE: num('POOL_SIZE', 0),
    // PGlite in a worker thread (service setting PGLITE_WORKER) in the gRPC server child:
    // '' = the service default (true), 'true' or 'false' to compare.
    PGLITE_WORKER: process.env.PGLITE_WORKER ?? '',
    // The same setting for the in-process ceiling. Default 'false': the ceiling stays the
    // in-thread PGlite it was before the worker existed (the faster in-process path, so moving
    // the server's PGlite to a worker cannot make the goal easier by slowing the ceiling).
    CEILING_PGLITE_WORKER: process.env.CEILING_PGLITE_WORKER || 'false',
    // 1 = EXPERIMENT: TCP_NODELAY on the server's accepted sockets.
    SERVER_NODELAY: num('SERVER_NODELAY', 0),
    // Which client calls the server: 'gateway' = the render gateway's reads (its unary caller
    // on node:http2 and hand-written ListItems/GetItem decoders: the real caller),
    // 'gateway-grpc-js' = the same decoders on grpc-js (the gateway before the unary caller),
    // 'generated' = ts-proto's grpc-js client.
    CLIENT: process.env.CLIENT || 'gateway',
  };
  if (!CLIENTS.includes(knobs.CLIENT))
    throw new Error(`CLIENT must be one of ${CLIENTS.join(', ')}, got ${knobs.CLIENT}`);
  if (knobs.CLIENT === 'gateway' && (knobs.CHANNELS !== 1 || knobs.FLOW_WINDOW > 0))
    throw new Error('CHANNELS and FLOW_WINDOW are grpc-js settings: use another CLIENT');
  for (const e of knobs.ENGINES)
    if (!['pglite', 'postgres'].includes(e)) throw new Error(`unknown engine ${e}`);
  for (const m of knobs.METHODS)
    if (!(m in METHODS)) throw new Error(`unknown method ${m} (${Object.keys(METHODS)})`);
  return knobs;
}

/** The request mixes: identical objects for gRPC and in-process. */
export const METHODS = {
  // Cycles ids 1..1000 (the seeded catalogue): one primary-key lookup per call.
  GetItem: () => {
    let id = 0;
    return {
      rpc: 'getItem',
      next: () => {
        id = (id % 1000) + 1;
        return { id };
      },
    };
  },
  // The first page of 100 items, unfiltered.
  ListItems100: () => ({
    rpc: 'listItems',
    next: () => ListItemsRequest.fromPartial({ pageSize: 100 }),
  }),
};

/** Machine description for the results. */
export function machineInfo() {
  const sh = (cmd) => {
    try {
      return execSync(cmd, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return undefined;
    }
  };
  return {
    nproc: Number(sh('nproc')) || os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model,
    totalMemGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    kernel: os.release(),
    node: process.version,
    loadavg: os.loadavg().map((v) => +v.toFixed(2)),
  };
}

const CLIENTS = ['gateway', 'gateway-grpc-js', 'generated'];

/** Starts one engine: database, server child (gRPC), in-process service, gRPC clients. */
export async function startEngine(
  engine,
  {
    channels = 1,
    flowWindow = 0,
    poolSize = 0,
    pgliteWorker = '',
    ceilingPgliteWorker = 'false',
    serverNoDelay = 0,
    client = 'gateway',
    log = console.error,
  } = {},
) {
  let postgres;
  let env;
  if (engine === 'pglite') env = { DATA_DIR: 'memory://' };
  else {
    process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
    const { startTestPostgres } = await import('@strata/testing');
    log(`[${engine}] starting postgres:15-bookworm container`);
    postgres = await startTestPostgres();
    env = { DATABASE_URL: await postgres.createDatabase() };
  }
  if (poolSize > 0) env.DATABASE_POOL_SIZE = String(poolSize);
  const server = await startServerChild({
    ...env,
    ...(pgliteWorker && { PGLITE_WORKER: pgliteWorker }),
    ...(serverNoDelay && { BENCH_SERVER_NODELAY: '1' }),
  });
  log(`[${engine}] server child pid ${server.pid} on ${server.address}`);
  // The in-process ceiling: the same service, same database, in the driver's own process.
  const local = await startDataService(
    loadDataConfig({ ...env, PGLITE_WORKER: ceilingPgliteWorker, DATA_PORT: '0' }),
    pino({ level: 'silent' }),
  );
  // One channel by default. With CHANNELS>1 each client gets its own subchannel pool, so its own
  // HTTP/2 connection; calls round-robin across them.
  const Client = client === 'generated' ? CatalogServiceClient : FastReadCatalogClient;
  const leanTransport = client === 'gateway' ? createGrpcTransport(server.address) : undefined;
  const lean = leanTransport && createCatalogClient(leanTransport, { deadlineMs: 10_000 });
  const clients = Array.from(
    { length: lean ? 0 : channels },
    () =>
      new Client(server.address, grpc.credentials.createInsecure(), {
        ...(channels > 1 && { 'grpc.use_local_subchannel_pool': 1 }),
        ...(flowWindow > 0 && { 'grpc-node.flow_control_window': flowWindow }),
      }),
  );
  await Promise.all(
    clients.map(
      (c) =>
        new Promise((resolve, reject) =>
          c.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
        ),
    ),
  );
  let turn = 0;
  return {
    engine,
    server,
    local,
    /** A function issuing one call of `method` in `mode` ('grpc' | 'inproc'). */
    caller(method, mode) {
      const { rpc, next } = METHODS[method]();
      if (mode === 'inproc') return () => local.catalog[rpc](next());
      if (lean) return () => lean[rpc](next());
      return () =>
        new Promise((resolve, reject) => {
          const channel = clients[turn++ % clients.length];
          channel[rpc](next(), (error, response) => (error ? reject(error) : resolve(response)));
        });
    },
    /** Driver and machine CPU now (synchronously), the server child's over IPC. */
    snapshot() {
      const driver = process.cpuUsage();
      const machine = machineCpu();
      return server.cpu().then((cpu) => ({ driver, machine, server: cpu }));
    },
    async stop() {
      for (const c of clients) c.close();
      lean?.close();
      await local.stop();
      await server.stop();
      if (postgres) await postgres.stop();
    },
  };
}

/** CPU use between two snapshots, as % of one core, plus CPU µs per call. */
export function cpuFromSnapshots(snapshots, calls) {
  const start = snapshots.find((s) => s.label === 'start');
  const end = snapshots.find((s) => s.label === 'end');
  if (!start?.value || !end?.value) return undefined;
  const wallUs = (end.at - start.at) * 1000;
  const used = (a, b) => b.user + b.system - (a.user + a.system);
  const driverUs = used(start.value.driver, end.value.driver);
  const serverUs = used(start.value.server, end.value.server);
  const m0 = start.value.machine;
  const m1 = end.value.machine;
  return {
    driverPct: +((100 * driverUs) / wallUs).toFixed(1),
    serverPct: +((100 * serverUs) / wallUs).toFixed(1),
    machineBusyPct:
      m0 && m1 ? +((100 * (m1.busy - m0.busy)) / (m1.total - m0.total)).toFixed(1) : undefined,
    driverUsPerCall: calls ? +(driverUs / calls).toFixed(1) : undefined,
    serverUsPerCall: calls ? +(serverUs / calls).toFixed(1) : undefined,
  };
}

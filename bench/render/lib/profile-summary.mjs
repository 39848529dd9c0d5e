#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof) of the render or data service under load:
// self time by category, top self-time frames, and inclusive time of chosen functions,
// counting only samples inside [fromUs, toUs] (CLOCK_MONOTONIC microseconds, the clock V8's
// profiler stamps samples with).
// Usage: node bench/render/lib/profile-summary.mjs <file.cpuprofile> [fromUs toUs]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Category of a frame, by its script URL and function name (first match wins). */
const CATEGORIES = [
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['idle', (f) => f.functionName === '(idle)'],
  ['V8/native (program)', (f) => f.functionName === '(program)'],
  ['React render (react-dom/server)', (f) => /react-dom[/\\]/.test(f.url)],
  ['React (react core)', (f) => /node_modules[/\\]react[/\\]/.test(f.url)],
  ['hydration JSON (jsonForScript, inline scripts)', (f) => /safe-json|segment-source/.test(f.url)],
  [
    'payload records (render-payload, payload-records)',
    (f) => /render-payload|payload-records/.test(f.url),
  ],
  [
    'protobuf codecs (ts-proto generated)',
    (f) => /proto[/\\](dist|src)[/\\]gen|[/\\]gen[/\\].*\.js/.test(f.url),
  ],
  ['protobuf runtime (@bufbuild/protobuf)', (f) => /@bufbuild|protobufjs|long[/\\]/.test(f.url)],
  ['gRPC (@grpc/grpc-js)', (f) => /@grpc[/\\]grpc-js/.test(f.url)],
  ['node http2 (gRPC transport)', (f) => /node:internal[/\\]http2|^node:http2/.test(f.url)],
  [
    'Fastify (fastify, find-my-way, avvio, light-my-request)',
    (f) =>
      /fastify|find-my-way|avvio|light-my-request|fast-json-stringify|safe-regex2|toad-cache/.test(
        f.url,
      ),
  ],
  ['pino', (f) => /pino|sonic-boom/.test(f.url)],
  [
    'PGlite (WASM Postgres)',
    (f) =>
      /@electric-sql|pglite/.test(f.url) ||
      f.functionName.startsWith('wasm-function') ||
      /wasm:/.test(f.url),
  ],
  ['Strata web runtime (other)', (f) => /packages[/\\]web[/\\]|@strata[/\\]web/.test(f.url)],
  ['render service app (services/render)', (f) => /services[/\\]render[/\\]/.test(f.url)],
  ['data service app (services/data)', (f) => /services[/\\]data[/\\]/.test(f.url)],
  ['zod', (f) => /zod/.test(f.url)],
  [
    'node http / net / streams',
    (f) =>
      /node:(internal[/\\])?(_http|http|net|stream|streams|tls|dns)|node:_http|node:stream|node:net|internal[/\\]streams/.test(
        f.url,
      ),
  ],
  ['node core (other)', (f) => f.url.startsWith('node:')],
  ['builtins (no script: JSON, RegExp, String, Promise …)', (f) => f.url === ''],
  ['other JS', () => true],
];

/** Functions whose inclusive time is reported (matched on name and URL pattern). */
const INCLUSIVE = [
  ['renderDocument (whole document render, sync parts)', 'renderDocument', /render-document/],
  ['React performWork (render work)', 'performWork', /react-dom/],
  ['React renderElement', 'renderElement', /react-dom/],
  ['React writeChunk / flush', 'flushCompletedQueues', /react-dom/],
  ['jsonForScript (hydration + boot JSON)', 'jsonForScript', /safe-json/],
  ['inlineScript', 'inlineScript', /segment-source/],
  ['SegmentView', 'SegmentView', /segment-tree/],
  ['items page component', 'component', /bench-routes/],
  ['formatPrice', 'formatPrice', /services/],
  ['renderPayload', 'renderPayload', /render-payload/],
  ['ListItemsResponse.decode (ts-proto)', 'decode', /catalog_service\.js/],
  ['Item.decode (ts-proto)', 'decode', /catalog\.js$/],
  ['longToNumber (int64 → number)', 'longToNumber', /gen/],
  ['grpc-js makeUnaryRequest', 'makeUnaryRequest', /grpc-js/],
  ['traceIdOf (random trace id)', 'traceIdOf', /request-context/],
  ['encodeRecord (payload JSON)', 'encodeRecord', /payload-records/],
  ['ts-proto encode (data service)', 'encode', /gen/],
  ['grpc-js Http2SubchannelCall handlers', 'handleResponseData', /grpc-js/],
  ['loader (bench-items)', 'loader', /bench-routes/],
  ['runLoader', 'runLoader', /run-loader/],
  ['Fastify onRequest → handler (runPreParsing …)', 'runPreParsing', /fastify/],
  ['fastify reply send', 'onSendEnd', /fastify/],
  ['http parserOnHeadersComplete', 'parserOnHeadersComplete', /_http_common|http/],
  ['Socket write (writeGeneric / writev)', 'writevGeneric', /./],
];

/** Categories that do not own their time: it goes to the nearest caller in another category. */
const NOT_OWNERS = new Set([
  'node core (other)',
  'builtins (no script: JSON, RegExp, String, Promise …)',
  'other JS',
]);

export function summarise(profile, fromUs = -Infinity, toUs = Infinity) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map(INCLUSIVE.map(([label]) => [label, 0]));
  let t = profile.startTime;
  let total = 0;
  let idle = 0;
  const samples = profile.samples;
  const deltas = profile.timeDeltas;
  for (let i = 0; i < samples.length; i++) {
    t += deltas[i];
    if (t < fromUs || t > toUs) continue;
    // The interval a sample stands for: the gap to the next sample (V8 convention).
    const dt = i + 1 < deltas.length ? deltas[i + 1] : deltas[i];
    const node = nodes.get(samples[i]);
    total += dt;
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    self.set(node.id, (self.get(node.id) ?? 0) + dt);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const f = nodes.get(id).callFrame;
      for (const [label, name, re] of INCLUSIVE) {
        if (!seen.has(label) && f.functionName === name && re.test(f.url)) {
          seen.add(label);
          inclusive.set(label, inclusive.get(label) + dt);
        }
      }
    }
  }
  const busy = total - idle;
  const byCategory = new Map();
  const byOwner = new Map();
  const byFrame = new Map();
  const catOf = new Map();
  const categoryOf = (id) => {
    if (!catOf.has(id))
      catOf.set(id, CATEGORIES.find(([, test]) => test(nodes.get(id).callFrame))[0]);
    return catOf.get(id);
  };
  for (const [id, us] of self) {
    let owner = categoryOf(id);
    for (
      let cur = parent.get(id);
      NOT_OWNERS.has(owner) && cur !== undefined;
      cur = parent.get(cur)
    ) {
      const c = categoryOf(cur);
      if (!NOT_OWNERS.has(c) && c !== 'V8/native (program)') owner = c;
    }
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
  }
  for (const [id, us] of self) {
    const f = nodes.get(id).callFrame;
    const cat = CATEGORIES.find(([, test]) => test(f))[0];
    byCategory.set(cat, (byCategory.get(cat) ?? 0) + us);
    const key = `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
    const e = byFrame.get(key) ?? { frame: key, category: cat, us: 0 };
    e.us += us;
    byFrame.set(key, e);
  }
  const pct = (us) => Math.round((1000 * us) / busy) / 10;
  return {
    wallMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    categories: [...byCategory]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, pctOfBusy: pct(us) })),
    attributed: [...byOwner]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, pctOfBusy: pct(us) })),
    topSelf: [...byFrame.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, 30)
      .map((e) => ({
        frame: e.frame,
        category: e.category,
        ms: Math.round(e.us / 100) / 10,
        pctOfBusy: pct(e.us),
      })),
    inclusive: [...inclusive]
      .filter(([, us]) => us > 0)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, pctOfBusy: pct(us) })),
  };
}

function shortUrl(url) {
  if (!url) return '(builtin)';
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^\/work\/main\//, '');
}

export function summaryMarkdown(title, s, requests) {
  const perReq = (ms) => (requests ? (ms / requests).toFixed(3) : '–');
  return [
    `### ${title}`,
    '',
    `Profiled window: ${s.wallMs} ms wall, ${s.busyMs} ms on the main thread (${s.idleMs} ms idle)` +
      (requests
        ? `, ${requests} requests → ${perReq(s.busyMs)} ms main-thread CPU per request.`
        : '.'),
    '',
    '| category (self time) | ms | % of busy | ms/req |',
    '|---|---:|---:|---:|',
    ...s.categories
      .filter((c) => c.name !== 'idle')
      .map((c) => `| ${c.name} | ${c.ms} | ${c.pctOfBusy} | ${perReq(c.ms)} |`),
    '',
    '| attributed to (node core and builtins charged to their nearest library caller) | ms | % of busy | ms/req |',
    '|---|---:|---:|---:|',
    ...s.attributed.map((c) => `| ${c.name} | ${c.ms} | ${c.pctOfBusy} | ${perReq(c.ms)} |`),
    '',
    '| top self-time frames | category | ms | % of busy |',
    '|---|---|---:|---:|',
    ...s.topSelf
      .slice(0, 20)
      .map((f) => `| \`${f.frame}\` | ${f.category} | ${f.ms} | ${f.pctOfBusy} |`),
    '',
    '| inclusive time of | ms | % of busy | ms/req |',
    '|---|---:|---:|---:|',
    ...s.inclusive.map((f) => `| ${f.name} | ${f.ms} | ${f.pctOfBusy} | ${perReq(f.ms)} |`),
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, from, to] = process.argv.slice(2);
  const s = summarise(
    JSON.parse(fs.readFileSync(file, 'utf8')),
    from ? Number(from) : -Infinity,
    to ? Number(to) : Infinity,
  );
  console.log(summaryMarkdown(path.basename(file), s));
}

// Summarises a V8 .cpuprofile of the relay: each sample is attributed to the first stage whose
// marker appears in its stack (leaf upward), so a socket write lands in the stage that asked for
// it. Given the answers the profiled load got, times are also shown per answer.
// Usage: node bench/relay/profile-summary.mjs file.cpuprofile [answers]
import { readFileSync } from 'node:fs';

const STAGES = [
  ['request metrics (prom-client)', /prom-client|metrics\/dist|metrics\/src/],
  ['per-client limits, request ids', /rate-limits\/|request-ids\.ts/],
  [
    'spool: record encode, batched write, fdatasync',
    /group-commit-writer|spool\/spool|spool-record/,
  ],
  [
    'upstream: forwarder + HTTP client (request write, response parse)',
    /forwarder\.ts|http-send\.ts|undici|_http_client|_http_agent/,
  ],
  [
    'envelope parse, filters, limits (incl. event JSON.parse)',
    /accept-envelope|envelope-intake|process-envelope|envelope\/|filters\/|limits\/|pipeline\//,
  ],
  ['ingest: body read', /read-body\.ts/],
  ['ingest: response (Fastify reply, socket write)', /reply\.js|_http_outgoing/],
  [
    'ingest: HTTP parse, Fastify routing, handler',
    /fastify|find-my-way|ingest-routes|_http_server|_http_common|_http_incoming/,
  ],
  ['socket reads (both directions)', /onStreamRead/],
  ['garbage collection', /^\(garbage collector\)/],
  ['program (native, libuv, syscalls)', /^\(program\)/],
];

export function summarizeProfile(profile, { answers } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map();
  profile.samples.forEach((id, i) =>
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const byStage = new Map();
  const byFunction = new Map();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const leaf = byId.get(id).callFrame;
    if (leaf.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const frames = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur).callFrame;
      frames.push(`${frame.functionName}@${frame.url}`);
    }
    const stack = frames.join('\n');
    const stage =
      STAGES.find(([, marker]) => new RegExp(marker.source, 'm').test(stack))?.[0] ?? 'other';
    byStage.set(stage, (byStage.get(stage) ?? 0) + us);
    const name = `${leaf.functionName || '(anonymous)'} ${leaf.url.replace(/^.*node_modules\//, '').replace(/^.*services\/relay\//, '')}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const pct = (us, of) => `${((us / of) * 100).toFixed(1)} %`;
  // Per answer when the answers are known; the share of busy time always.
  const cost = (us) =>
    answers ? `${(us / answers).toFixed(1)} µs | ${pct(us, busy)}` : pct(us, busy);
  const lines = [
    `sampled ${((busy + idle) / 1e6).toFixed(1)} s, main thread busy ${pct(busy, busy + idle)}`,
    ...(answers ? [`${answers} answers: ${(busy / answers).toFixed(1)} µs busy per answer`] : []),
    '',
    answers
      ? '| stage (by call stack) | per answer | share |'
      : '| stage (by call stack) | share |',
    answers ? '| --- | ---: | ---: |' : '| --- | ---: |',
  ];
  for (const [stage, us] of [...byStage].sort((a, b) => b[1] - a[1]))
    lines.push(`| ${stage} | ${cost(us)} |`);
  lines.push(
    '',
    '| top functions by self time | ' + (answers ? 'per answer | share |' : 'share |'),
  );
  lines.push(answers ? '| --- | ---: | ---: |' : '| --- | ---: |');
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25))
    lines.push(`| ${name} | ${cost(us)} |`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.mjs')) {
  const answers = process.argv[3] ? Number(process.argv[3]) : undefined;
  console.log(summarizeProfile(JSON.parse(readFileSync(process.argv[2], 'utf8')), { answers }));
}

// Summarises a V8 .cpuprofile of the relay: each sample is attributed to the first stage whose
// marker appears in its stack (leaf upward), so a socket write lands in the stage that asked for
// it. The profile includes start-up and warm-up, so shares matter, not absolute times.
// Usage: node bench/relay/profile-summary.mjs file.cpuprofile
import { readFileSync } from 'node:fs';

const STAGES = [
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
    /accept-envelope|process-envelope|parse-envelope|filters\/|limits\/|filterable-item/,
  ],
  ['ingest: body read', /read-body\.ts/],
  ['ingest: response (Fastify reply, socket write)', /reply\.js|_http_outgoing/],
  [
    'ingest: HTTP parse, Fastify routing, handler',
    /fastify|find-my-way|ingest-routes|_http_server|_http_common|_http_incoming/,
  ],
  ['socket reads (both directions)', /onStreamRead/],
  ['module loading (start-up)', /loader|esm|compile/],
  ['garbage collection', /^\(garbage collector\)/],
  ['program (native, libuv, syscalls)', /^\(program\)/],
];

export function summarizeProfile(profile) {
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
  const lines = [
    `sampled ${((busy + idle) / 1e6).toFixed(1)} s, main thread busy ${pct(busy, busy + idle)}`,
    '',
    '| stage (by call stack) | share of busy CPU |',
    '| --- | ---: |',
  ];
  for (const [stage, us] of [...byStage].sort((a, b) => b[1] - a[1]))
    lines.push(`| ${stage} | ${pct(us, busy)} |`);
  lines.push('', 'top functions by self time (share of busy CPU):');
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    lines.push(`  ${pct(us, busy).padStart(7)}  ${name}`);
  }
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.mjs')) {
  console.log(summarizeProfile(JSON.parse(readFileSync(process.argv[2], 'utf8'))));
}

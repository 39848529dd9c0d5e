// Summarises a V8 .cpuprofile: self and inclusive time by function and by area.
import { readFileSync } from 'node:fs';

export function area(frame) {
  const { functionName: fn, url } = frame;
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(program)') return 'V8/native (program)';
  if (fn === '(root)') return 'root';
  if (url.includes('@grpc/grpc-js')) return 'grpc-js';
  if (url.includes('@bufbuild/protobuf')) return 'protobuf runtime (@bufbuild/protobuf wire)';
  if (url.includes('/proto/dist/gen/')) return 'generated codecs (ts-proto)';
  if (url.includes('@electric-sql/pglite')) return 'PGlite (WASM + JS)';
  if (url.includes('/node_modules/pg') || url.includes('pg-protocol')) return 'node-postgres';
  if (url.includes('/services/data/dist/')) return 'data service';
  if (url.includes('/bench/data/')) return 'bench driver';
  if (url.startsWith('node:internal/http2') || url.startsWith('node:http2')) return 'node http2';
  if (url.startsWith('node:') || url === '')
    return url === '' ? 'native/builtin' : 'node core (other)';
  if (url.startsWith('wasm://')) return 'WASM';
  return 'other';
}

const label = (f) =>
  `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/work\/main\//, '')}:${f.lineNumber + 1}` : ''}`.trim();

export function summariseProfile(path, top = 25) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Time per sample: the delta to the next sample (V8 convention), last one gets the median.
  const deltas = profile.timeDeltas;
  const samples = profile.samples;
  const selfUs = new Map();
  let totalUs = 0;
  for (let i = 0; i < samples.length; i++) {
    const dt = deltas[i + 1] ?? deltas[i] ?? 0;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + dt);
    totalUs += dt;
  }
  const selfByFn = new Map();
  const totalByFn = new Map();
  const byArea = new Map();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    const key = label(node.callFrame);
    selfByFn.set(key, (selfByFn.get(key) ?? 0) + us);
    const a = area(node.callFrame);
    byArea.set(a, (byArea.get(a) ?? 0) + us);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(byId.get(cur).callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      totalByFn.set(k, (totalByFn.get(k) ?? 0) + us);
    }
  }
  const idle = byArea.get('idle') ?? 0;
  const busy = totalUs - idle;
  const rows = (m) =>
    [...m]
      .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(root)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        ms: +(us / 1000).toFixed(1),
        pctOfBusy: +((100 * us) / busy).toFixed(1),
      }));
  return {
    wallMs: +(totalUs / 1000).toFixed(0),
    busyMs: +(busy / 1000).toFixed(0),
    idlePct: +((100 * idle) / totalUs).toFixed(1),
    areas: [...byArea]
      .filter(([a]) => a !== 'idle')
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({
        name,
        ms: +(us / 1000).toFixed(1),
        pctOfBusy: +((100 * us) / busy).toFixed(1),
      })),
    selfTop: rows(selfByFn),
    inclusiveTop: rows(totalByFn),
  };
}

export function profileMarkdown(title, s, calls) {
  const perCall = (ms) => (calls ? ` | ${((ms * 1000) / calls).toFixed(0)}` : '');
  const head = calls ? ' | µs/call' : '';
  const sep = calls ? '|---:' : '';
  const lines = [
    `#### ${title}`,
    '',
    `${s.wallMs} ms profiled, ${s.busyMs} ms on-CPU in the JS thread (idle ${s.idlePct}%)${calls ? `, ${calls} calls` : ''}.`,
    '',
    `| area (self time) | ms | % of busy${head} |`,
    `|---|---:|---:${sep}|`,
    ...s.areas.map((a) => `| ${a.name} | ${a.ms} | ${a.pctOfBusy}${perCall(a.ms)} |`),
    '',
    `| top self frames | ms | % of busy |`,
    '|---|---:|---:|',
    ...s.selfTop.map((r) => `| \`${r.name}\` | ${r.ms} | ${r.pctOfBusy} |`),
    '',
    `| top inclusive frames | ms | % of busy |`,
    '|---|---:|---:|',
    ...s.inclusiveTop.map((r) => `| \`${r.name}\` | ${r.ms} | ${r.pctOfBusy} |`),
    '',
  ];
  return lines.join('\n');
}

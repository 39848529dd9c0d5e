#!/usr/bin/env node
// What remembering event ids costs per envelope, in one loop: the key made from an id as
// JSON.parse hands it over, the look-up and the record, with the memory at a small and at the
// default size (full, so every record also forgets the oldest id), beside making the ids alone.
// Usage (after npm run build): node bench/relay/dedupe-micro.mjs [ids per size, default 2000000]
import { eventKeyOf } from '../../services/relay/dist/dedupe/event-key.js';
import { createSeenEvents } from '../../services/relay/dist/dedupe/seen-events.js';

const N = Number(process.argv[2] || 2_000_000);
let made = 0;
const nextId = () => JSON.parse(`"${(++made).toString(16).padStart(32, '0')}"`);
const cpuUsPerOp = (run) => {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / N).toFixed(3);
};

for (const maxIds of [1000, 50_000]) {
  const seen = createSeenEvents({ windowMs: 600_000, maxIds });
  const perOp = cpuUsPerOp(() => {
    for (let i = 0; i < N; i++) {
      const key = eventKeyOf('7:browser0public0key', nextId());
      if (!seen.has(key, i)) seen.add(key, i);
    }
  });
  console.log(`${maxIds} ids remembered: ${perOp} µs CPU per envelope`);
}
console.log(
  `the ids alone: ${cpuUsPerOp(() => {
    for (let i = 0; i < N; i++) nextId();
  })} µs`,
);

#!/usr/bin/env node
// The young generation under the anchor benchmark's load: each side's renderer runs with
// --trace-gc-nvp (and FLAGS), is warmed up, then loaded alone; the collections V8 printed in the
// measured seconds are summed (bench/kit/gc-trace.mjs). Says what a renderer's scavenges cost per
// page and how much survives and is promoted each time, which bytes allocated alone do not, and
// its resident memory once started and after the load.
//
//   node bench/render/gc-stats.mjs               # after `npm run build`
//
// Env: SIDES (strata,minimal+hydration+strata-client; bench/render/lib/like-for-like-sides.mjs),
//      FLAGS (node flags for every renderer, e.g. --max-semi-space-size=128), STRATA_BASE_FLAGS
//      (instead of the render service's deployed flags; `none` for none), RUNS (2), WARMUP (3),
//      DURATION (8), CONNECTIONS (50), NAME (bench/.out/render/<NAME>/gc-stats.md).
import { collectionsOf, gcTotals } from '../kit/gc-trace.mjs';
import { measureLoad, warmUpAll } from '../kit/measure-load.mjs';
import { rssMiB } from '../kit/memory.mjs';
import { runName, writeOutputs } from '../kit/out.mjs';
import { flagsOf, positiveInteger, positiveNumber } from '../kit/settings.mjs';
import { sidesNamed, startSide } from './lib/like-for-like-sides.mjs';

const env = process.env;
const NAME = env.NAME || runName('gc-stats');
let labels, flags, strataBaseFlags, RUNS, WARMUP, DURATION, CONNECTIONS;
try {
  labels = sidesNamed(env.SIDES || 'strata,minimal+hydration+strata-client');
  flags = flagsOf(env.FLAGS, []);
  strataBaseFlags = flagsOf(env.STRATA_BASE_FLAGS, undefined);
  RUNS = positiveInteger('RUNS', env.RUNS, 2);
  WARMUP = positiveNumber('WARMUP', env.WARMUP, 3);
  DURATION = positiveNumber('DURATION', env.DURATION, 8);
  CONNECTIONS = positiveInteger('CONNECTIONS', env.CONNECTIONS, 50);
} catch (error) {
  console.error(`[gc-stats] ${error.message}`);
  process.exit(64);
}

const MB = 1e6;
const rows = [];
for (let run = 1; run <= RUNS; run += 1) {
  for (const label of labels) {
    const side = await startSide(label, {
      flags: [...flags, '--trace-gc-nvp'],
      strataBaseFlags,
      keepStdout: true,
    });
    try {
      const target = { [label]: { url: side.url, pids: { render: side.pids.render } } };
      const idleRssMiB = rssMiB(side.pids.render);
      await warmUpAll(target, { connections: CONNECTIONS }, WARMUP);
      let trace = '';
      const read = (chunk) => (trace += chunk);
      side.stdout.on('data', read);
      const measured = (
        await measureLoad(target, { connections: CONNECTIONS, duration: DURATION })
      )[label];
      side.stdout.off('data', read);
      const loadedRssMiB = rssMiB(side.pids.render);
      const pages = measured.completed;
      const totals = gcTotals(trace);
      const scavenges = collectionsOf(totals, 's');
      const markCompacts = collectionsOf(totals, 'mc');
      const perScavenge = (bytes) => (scavenges.count ? bytes / scavenges.count / MB : 0);
      const row = {
        run,
        label,
        pagesPerSecond: measured.perSecond,
        renderCpuMs: measured.cpuMs.render,
        scavenges: scavenges.count,
        scavengeUsPerPage: (scavenges.pauseMs * 1000) / pages,
        survivedMb: perScavenge(scavenges.survived),
        promotedMb: perScavenge(scavenges.promoted),
        markCompacts: markCompacts.count,
        markCompactUsPerPage: (markCompacts.pauseMs * 1000) / pages,
        allocatedKbPerPage: scavenges.allocated / pages / 1000,
        newSpaceMb: totals.newSpaceCapacity / MB,
        idleRssMiB,
        loadedRssMiB,
      };
      rows.push(row);
      console.log(
        `[gc-stats] run ${run} ${label}: ${row.pagesPerSecond.toFixed(0)} pages/s, ` +
          `${row.scavenges} scavenges (${row.scavengeUsPerPage.toFixed(1)} µs/page, ` +
          `${row.survivedMb.toFixed(2)} MB survived, ${row.promotedMb.toFixed(2)} MB promoted each)`,
      );
    } finally {
      await side.stop();
    }
  }
}

const report = [
  `# GC under load: ${NAME}`,
  '',
  `${RUNS} runs of ${DURATION} s after ${WARMUP} s of warm-up, one side at a time, ${CONNECTIONS} connections, ` +
    `node ${process.version}, renderer flags: ${flags.join(' ') || '(deployed only)'} --trace-gc-nvp` +
    (strataBaseFlags
      ? `; Strata's instead of its deployed ones: ${strataBaseFlags.join(' ') || '(none)'}.`
      : '.'),
  '',
  '| run | side | pages/s | render CPU ms/page | scavenges | scavenge µs/page | survived MB/scavenge | promoted MB/scavenge | mark-compacts | mark-compact µs/page | allocated KB/page | young generation MB | RSS MiB idle / loaded |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.run} | ${r.label} | ${r.pagesPerSecond.toFixed(0)} | ${r.renderCpuMs.toFixed(3)} | ${r.scavenges} | ` +
      `${r.scavengeUsPerPage.toFixed(1)} | ${r.survivedMb.toFixed(2)} | ${r.promotedMb.toFixed(2)} | ` +
      `${r.markCompacts} | ${r.markCompactUsPerPage.toFixed(1)} | ${r.allocatedKbPerPage.toFixed(0)} | ${r.newSpaceMb.toFixed(0)} | ${r.idleRssMiB.toFixed(0)} / ${r.loadedRssMiB.toFixed(0)} |`,
  ),
  '',
].join('\n');
const dir = writeOutputs(`render/${NAME}`, {
  'gc-stats.md': report,
  'gc-stats.json': `${JSON.stringify(rows, null, 2)}\n`,
});
console.log(`\n${report}\n[gc-stats] written to ${dir}/gc-stats.md`);

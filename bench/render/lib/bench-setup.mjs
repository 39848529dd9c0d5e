// What the render service's load benches share: where this checkout and the anchors are, the
// anchors' autocannon (the same load generator as the anchor benchmark), and CPU time from /proc.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cpuTicksOfStat as ticksOfStat } from '../../kit/proc-stat.mjs';
import { fileURLToPath } from 'node:url';

/** bench/render. */
export const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO = path.resolve(HERE, '../..');
if (!process.env.ANCHORS) {
  console.error('ANCHORS must name the benchmark anchors directory (see bench/anchors/README.md)');
  process.exit(64);
}
export const ANCHORS = path.resolve(process.env.ANCHORS);
export const autocannon = createRequire(path.join(ANCHORS, 'package.json'))('autocannon');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `url` answers 200 (polled every 100 ms, for at most 60 s). */
export async function untilOk(url) {
  for (let i = 0; i < 600; i++) {
    if (
      (await fetch(url).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      return;
    await sleep(100);
  }
  throw new Error(`${url} not ready`);
}

/** utime + stime of a process so far, in clock ticks (USER_HZ: 100 a second). */
export function cpuTicks(pid) {
  return ticksOfStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** cpuTicks of every thread of `pid`, by "<thread id> <thread name>". */
export function threadCpuTicks(pid) {
  const ticks = {};
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      ticks[`${tid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`] =
        ticksOfStat(stat);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ticks;
}

/** bench/.out/render/<NAME>, or <prefix>-<UTC minute> when NAME is unset. */
export function resultsDir(prefix) {
  const stamp = new Date().toISOString().slice(0, 16).replace(/:/g, '-');
  return path.join(HERE, '../.out/render', process.env.NAME || `${prefix}-${stamp}`);
}

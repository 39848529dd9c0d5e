// CPU time from /proc (Linux): a process's, each of its threads', the machine's, and a sampler
// for windows that are only known afterwards. The parsing is proc-stat.mjs's.
import { readFileSync, readdirSync } from 'node:fs';
import { cpuTicksOfStat, machineTicksOfStat, nameOfStat, ticksToMs } from './proc-stat.mjs';

/** utime + stime of `pid` (all its threads) in milliseconds. */
export const cpuMs = (pid) => ticksToMs(cpuTicksOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8')));

/** CPU milliseconds of every thread of `pid`, by "<thread id> <thread name>". */
export function threadCpuMs(pid) {
  const byThread = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      byThread[`${tid} ${nameOfStat(stat)}`] = ticksToMs(cpuTicksOfStat(stat));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byThread;
}

/** The machine's counters (user, system, idle, …) in ticks; machineShares compares two. */
export const machineTicks = () => machineTicksOfStat(readFileSync('/proc/stat', 'utf8'));

/** The 1, 5 and 15 minute load averages, as /proc/loadavg prints them. */
export const loadAverage = () =>
  readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * Reads cpuMs(pid) every `everyMs` into `samples` (`[performance.now(), ms]`), for windows whose
 * edges are only known later (stats.mjs's valueAt reads them). `stop()` takes a last sample.
 */
export function sampleCpu(pid, everyMs = 50) {
  const samples = [];
  const take = () => {
    try {
      samples.push([performance.now(), cpuMs(pid)]);
    } catch {
      // the process has exited
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
    },
  };
}

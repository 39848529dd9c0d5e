// A process's CPU time so far, read from /proc (Linux). The parsing is proc-stat.mjs's.
import { readFileSync } from 'node:fs';
import { cpuTicksOfStat, ticksToMs } from './proc-stat.mjs';

/** utime + stime of `pid` (all its threads) in milliseconds. */
export const cpuMs = (pid) => ticksToMs(cpuTicksOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8')));

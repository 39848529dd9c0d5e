/**
 * The processes a process started, read from /proc (Linux): how a test sees the service that
 * `strata start` runs as its child, and the node flags it runs with.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => parentOf(Number(entry)) === pid)
    .map(Number);
}

/** A process's command line as words; [] once it is gone. */
export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Whether a process still runs (a zombie has finished). */
export function isRunning(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name in parentheses may hold spaces: the fields after it are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

// CPU time from a /proc/<pid>/stat line. Pure: the caller reads the file.

/** Clock ticks per second of utime and stime (USER_HZ; 100 on every Linux we run on). */
export const USER_HZ = 100;

/**
 * utime + stime (fields 14 and 15) in clock ticks. The command name (field 2) is in
 * parentheses and may hold spaces or parentheses itself, so fields are counted after the last ')'.
 */
export function cpuTicksOfStat(stat) {
  const close = stat.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc stat line: ${stat.slice(0, 40)}`);
  const fields = stat.slice(close + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(`no utime/stime in: ${stat.slice(0, 80)}`);
  return utime + stime;
}

/** Milliseconds of CPU for `ticks` clock ticks. */
export const ticksToMs = (ticks, userHz = USER_HZ) => (ticks * 1000) / userHz;

/** CPU milliseconds per completed request between two readings (in ms). */
export function cpuMsPerRequest(beforeMs, afterMs, requests) {
  if (!(requests > 0)) throw new Error('no completed requests to divide the CPU time by');
  return (afterMs - beforeMs) / requests;
}

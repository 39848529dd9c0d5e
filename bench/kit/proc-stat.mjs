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

/** The thread or process name (field 2) of a stat line, without its parentheses. */
export const nameOfStat = (stat) => stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));

/** The machine's counters on the first line of /proc/stat, in ticks. */
export const MACHINE_FIELDS = [
  'user',
  'nice',
  'system',
  'idle',
  'iowait',
  'irq',
  'softirq',
  'steal',
];

/** `{ user, nice, system, idle, iowait, irq, softirq, steal }` from the text of /proc/stat. */
export function machineTicksOfStat(text) {
  const [label, ...values] = text.split('\n')[0].trim().split(/\s+/);
  if (label !== 'cpu') throw new Error(`not /proc/stat: ${text.slice(0, 40)}`);
  return Object.fromEntries(MACHINE_FIELDS.map((field, i) => [field, Number(values[i] ?? 0)]));
}

/** Each counter's share (0…1) of the time between two machineTicksOfStat readings. */
export function machineShares(before, after) {
  const spent = MACHINE_FIELDS.map((field) => after[field] - before[field]);
  const all = spent.reduce((sum, value) => sum + value, 0);
  return Object.fromEntries(MACHINE_FIELDS.map((field, i) => [field, all ? spent[i] / all : 0]));
}

/** Ticks the machine spent working (all but idle and iowait) in a machineTicksOfStat reading. */
export const busyTicks = (t) => t.user + t.nice + t.system + t.irq + t.softirq + t.steal;

/** The resident set (VmRSS) in kB from the text of /proc/<pid>/status. */
export function rssKbOfStatus(status) {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!match)
    throw new Error('no VmRSS in this /proc status (a kernel thread, or an exited process)');
  return Number(match[1]);
}

import { describe, expect, it } from 'vitest';
import {
  busyTicks,
  cpuMsPerRequest,
  cpuTicksOfStat,
  machineShares,
  machineTicksOfStat,
  nameOfStat,
  rssKbOfStatus,
  ticksToMs,
} from './proc-stat.mjs';

// A real /proc/<pid>/stat line of node (fields 14, 15: utime 1234, stime 56).
const STAT =
  '4242 (node) S 4200 4242 4200 34816 4242 4194304 9000 0 0 0 1234 56 0 0 20 0 11 0 ' +
  '123456 1100000000 30000 18446744073709551615 1 1 0 0 0 0 0 16781312 134234626 0 0 0 17 1 0 0 0 0 0\n';

describe('cpuTicksOfStat', () => {
  it('adds utime and stime', () => {
    expect(cpuTicksOfStat(STAT)).toBe(1290);
  });

  it('counts fields after the last parenthesis, so a name with spaces and ")" does not shift them', () => {
    expect(cpuTicksOfStat(STAT.replace('(node)', '(my (odd) name)'))).toBe(1290);
  });

  it('refuses what is not a stat line', () => {
    expect(() => cpuTicksOfStat('garbage')).toThrow('not a /proc stat line');
    expect(() => cpuTicksOfStat('1 (x) S 1 2')).toThrow('no utime/stime');
  });
});

describe('CPU per request', () => {
  it('turns ticks into ms at USER_HZ', () => {
    expect(ticksToMs(150)).toBe(1500);
    expect(ticksToMs(150, 250)).toBe(600);
  });

  it('divides the CPU between two readings by the completed requests', () => {
    expect(cpuMsPerRequest(1000, 3000, 4000)).toBe(0.5);
    expect(() => cpuMsPerRequest(0, 10, 0)).toThrow('no completed requests');
  });
});

describe('names and the machine', () => {
  it('reads the thread name inside the parentheses', () => {
    expect(nameOfStat(STAT.replace('(node)', '(V8 Worker (2))'))).toBe('V8 Worker (2)');
  });

  const machine = (user, idle) => `cpu  ${user} 0 10 ${idle} 0 0 5 0 0 0\ncpu0 1 2 3 4\n`;

  it('reads the first line of /proc/stat by counter', () => {
    expect(machineTicksOfStat(machine(100, 900))).toEqual({
      user: 100,
      nice: 0,
      system: 10,
      idle: 900,
      iowait: 0,
      irq: 0,
      softirq: 5,
      steal: 0,
    });
    expect(() => machineTicksOfStat('intr 1 2')).toThrow('not /proc/stat');
  });

  it('gives each counter its share of the time between two readings', () => {
    const shares = machineShares(
      machineTicksOfStat(machine(100, 900)),
      machineTicksOfStat(machine(160, 940)),
    );
    expect(shares.user).toBe(0.6);
    expect(shares.idle).toBe(0.4);
    expect(shares.system).toBe(0);
  });

  it('counts busy ticks as all but idle and iowait', () => {
    expect(busyTicks(machineTicksOfStat(machine(100, 900)))).toBe(115);
  });
});

describe('rssKbOfStatus', () => {
  it('reads VmRSS from /proc/<pid>/status', () => {
    expect(rssKbOfStatus('Name:\tnode\nVmPeak:\t 900 kB\nVmRSS:\t   51200 kB\n')).toBe(51200);
    expect(() => rssKbOfStatus('Name:\tkthreadd\n')).toThrow('no VmRSS');
  });
});

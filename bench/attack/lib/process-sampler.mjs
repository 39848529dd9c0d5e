// Samples a process's resident memory (bench/kit) at a fixed interval, and its CPU time.
import { cpuMs } from '../../kit/cpu.mjs';
import { rssMiB } from '../../kit/memory.mjs';

/** Resident set of `pid` in MiB, or undefined once it has exited. */
function rssOrNothing(pid) {
  try {
    return rssMiB(pid);
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) `pid` has used so far. */
function cpuSeconds(pid) {
  try {
    return cpuMs(pid) / 1000;
  } catch {
    return NaN;
  }
}

/**
 * Starts sampling; `stop()` answers the RSS samples as [seconds since start, MiB] and the cores
 * the process used on average meanwhile.
 */
export function sampleProcess(pid, intervalMs = 200) {
  const started = performance.now();
  const cpuAtStart = cpuSeconds(pid);
  const samples = [];
  const take = () => {
    const value = rssOrNothing(pid);
    if (value !== undefined) samples.push([(performance.now() - started) / 1000, value]);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const seconds = (performance.now() - started) / 1000;
      return { samples, cores: (cpuSeconds(pid) - cpuAtStart) / seconds };
    },
  };
}

/** The peak of the samples, and the peak of each `windowS`-second window. */
export function rssSummary(samples, windowS = 10) {
  const windows = [];
  for (const [t, mib] of samples) {
    const index = Math.floor(t / windowS);
    windows[index] = Math.max(windows[index] ?? 0, mib);
  }
  return { peak: Math.max(...samples.map(([, mib]) => mib)), windows: windows.map((w) => w ?? 0) };
}

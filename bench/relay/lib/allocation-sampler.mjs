// Preloaded into the relay (`--import`) by alloc-profile.mjs: samples every allocation, kept or
// collected since (unlike --heap-prof, which reports only what is still alive), from the first
// SIGUSR2 until the second, then writes the profile to PROFILE_OUT.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const session = new Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', async () => {
  if (!sampling) {
    sampling = true;
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  console.log('allocation profile written');
});

// Preloaded into the relay (`--import`) by profile.mjs: V8's CPU profiler from the first SIGUSR2
// until the second, then the profile is written to PROFILE_OUT. Start-up and warm-up stay out
// of it, so its times divide by the answers of the measured load alone.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const session = new Session();
session.connect();
let profiling = false;
process.on('SIGUSR2', async () => {
  if (!profiling) {
    profiling = true;
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    return;
  }
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  console.log('cpu profile written');
});

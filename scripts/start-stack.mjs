// `npm start`: runs every service of the stack in one terminal with embedded defaults
// (PGlite, in-process cache), prefixed logs, a banner with the URLs once all are ready, and a
// clean shutdown on Ctrl-C. Variables already set in the environment win over these defaults.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireRuntime } from './stack/runtime.mjs';
import { serviceCatalog } from './stack/services.mjs';
import { startService } from './stack/supervise.mjs';

requireRuntime('npm start');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const services = serviceCatalog(process.env).filter((service) => {
  const present = existsSync(join(root, service.entry));
  if (!present)
    console.log(`[strata] ${service.name}: not built (${service.entry} missing); skipped`);
  return present;
});

const running = [];
let stopping = false;

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  console.log('\n[strata] stopping…');
  await Promise.all(running.map((handle) => handle.stop()));
  console.log('[strata] stopped');
  process.exit(code);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/** Starts a service once the one it names in `after` (listed before it) is ready. */
async function start(service) {
  if (service.after) await running.find((handle) => handle.name === service.after)?.ready;
  if (stopping) return;
  const handle = startService(root, service);
  running.push(handle);
  handle.exited.then(({ code, signal }) => {
    if (stopping) return;
    console.error(
      `[strata] ${handle.name} exited (${signal ?? `code ${code}`}); stopping the stack`,
    );
    void stopAll(1);
  });
  await handle.ready;
}

try {
  // A service without `after` is registered synchronously, so one listed later finds it.
  await Promise.all(services.map(start));
} catch (error) {
  console.error(`[strata] ${error.message}`);
  await stopAll(1);
}
const width = Math.max(...services.map((s) => s.name.length));
console.log(`\n  Strata is running (node ${process.version})\n`);
for (const service of services) console.log(`  ${service.name.padEnd(width)}  ${service.url}`);
console.log('\n  Press Ctrl-C to stop.\n');

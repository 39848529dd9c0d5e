/**
 * The render service under `strata start`, as a child process with the node flags every
 * deployment gives it (the image's CMD, `npm start`). V8 flags such as --no-memory-reducer take
 * effect only when a process starts, so `strata` cannot apply them to itself.
 *
 * The child has a process group of its own: a terminal's Ctrl-C, or a group kill, reaches
 * `strata` alone, which passes one signal on. Two would end the service's graceful shutdown at
 * once (its handlers run once; a second signal gets the default action). If `strata` dies
 * without passing anything on, the child's IPC channel closes and it stops itself
 * (service-child.ts).
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The flags the service runs with wherever it is deployed (e2e/tests/launch-flags.test.ts). */
export const RENDER_NODE_FLAGS: readonly string[] = [
  '--no-memory-reducer',
  '--min-semi-space-size=64',
  '--max-semi-space-size=64',
];

const SERVICE_CHILD = fileURLToPath(new URL('./service-child.js', import.meta.url));
const PASSED_ON: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs the service with `env` until it exits; resolves with the exit code to end with. */
export function runService(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [...RENDER_NODE_FLAGS, SERVICE_CHILD], {
    env,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  const passOn = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of PASSED_ON) process.on(signal, passOn);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const passed of PASSED_ON) process.off(passed, passOn);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

/**
 * The relay as a child process (`src/main.ts` through tsx), for tests that signal or kill it:
 * resolves with its URL once it listens, and with its exit code when it exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const relayDir = fileURLToPath(new URL('../..', import.meta.url));

/** A running relay process. */
export interface RelayProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/** Every process spawned here, so a test file can kill what is left in `afterAll`. */
const spawned: ChildProcess[] = [];

/** Kills every relay process still running. */
export function killAllRelayProcesses(): void {
  for (const child of spawned) if (child.exitCode === null) child.kill('SIGKILL');
}

/** Spawns a relay with `env` (set RELAY_PORT to 0) and waits until it listens. */
export function spawnRelay(env: Record<string, string>): Promise<RelayProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=@strata/source', '--import', 'tsx', 'src/main.ts'],
    { cwd: relayDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  spawned.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`relay did not start: ${output}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1], exited });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`relay exited with ${code}: ${output}`)));
  });
}

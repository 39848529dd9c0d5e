// Runs a bench tool as the person using it would: `node <script> [args]` from the repository
// root with extra environment, to the end; resolves with its exit status and what it printed.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { REPO } from '../kit/out.mjs';

export function runTool(script, { args = [], env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, stdout, stderr, output: `${stdout}\n--- stderr ---\n${stderr}` }),
    );
  });
}

/** The readings of a report's rounds that are not a positive number: none when all were read. */
export function unreadMetrics(rounds, keys) {
  return rounds
    .flatMap((round) =>
      ['A', 'B'].flatMap((side) => keys.map((key) => ({ side, key, value: round[side][key] }))),
    )
    .filter(({ value }) => !(Number.isFinite(value) && value > 0));
}

/** A run's exit status, with what it printed when that was not 0, so a failure shows why. */
export const endOf = (run) =>
  run.status === 0 ? { status: 0 } : { status: run.status, output: run.output };

/** The output folders a test's runs wrote, so they can all be removed once it is done. */
export function outputFolders() {
  const written = new Set();
  return {
    /** Notes `dir` for removal and hands it back. */
    kept(dir) {
      written.add(dir);
      return dir;
    },
    removeAll() {
      for (const dir of written) rmSync(dir, { recursive: true, force: true });
    },
  };
}

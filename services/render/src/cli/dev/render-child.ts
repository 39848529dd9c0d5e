/**
 * One render server of `strata dev`: a child process that loads the service's modules at once
 * (standby-server.ts) and runs its composition root when told to start, on an internal port, in
 * development. Its log lines are printed readably and its errors handed on; it is ready when
 * /readyz answers, or failed when it exits first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DevProblem } from './dev-page-script.js';
import { readLogLine } from './log-lines.js';

const STANDBY = fileURLToPath(new URL('./standby-server.js', import.meta.url));
const READY_TIMEOUT_MS = 30_000;

/** The variables a server starts with (sent to the standby process, which has its own env). */
export type ServerEnvironment = Record<string, string>;

export interface RenderChildOptions {
  /** A line for the terminal. */
  print(text: string): void;
  /** An error a request (or the start) caused. */
  onProblem(problem: DevProblem, requestId: string | undefined): void;
}

export class RenderChild {
  readonly #child: ChildProcess;
  readonly #exited: Promise<number | null>;
  #output = '';
  #port = 0;
  /** Resolves when the standby has loaded the service's modules. */
  readonly warm: Promise<void>;

  constructor(readonly options: RenderChildOptions) {
    this.#child = spawn(process.execPath, [STANDBY], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.#exited = new Promise((resolve) => this.#child.once('exit', (code) => resolve(code)));
    this.warm = new Promise((resolve) => this.#child.once('message', () => resolve()));
    for (const stream of [this.#child.stdout!, this.#child.stderr!])
      createInterface({ input: stream }).on('line', (line) => {
        this.#output += `${line}\n`;
        const read = readLogLine(line);
        options.print(read.text);
        if (read.problem) options.onProblem(read.problem.problem, read.problem.requestId);
      });
  }

  /** Starts the server on `port` with `environment` (added to the process's own). */
  start(port: number, environment: ServerEnvironment): void {
    this.#port = port;
    this.#child.send(environment);
  }

  /** Resolves when the server answers /readyz; rejects with its output when it exits first. */
  async ready(): Promise<void> {
    const until = Date.now() + READY_TIMEOUT_MS;
    let exited = false;
    void this.#exited.then(() => (exited = true));
    while (Date.now() < until) {
      if (exited) throw new Error(this.#output.trim() || 'the render server exited');
      const ok = await fetch(`http://127.0.0.1:${this.#port}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the render server was not ready within ${READY_TIMEOUT_MS / 1000} s`);
  }

  /** Stops the server (SIGTERM, then SIGKILL after 2 s) and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.kill('SIGTERM');
    const force = setTimeout(() => this.#child.kill('SIGKILL'), 2000);
    await this.#exited;
    clearTimeout(force);
  }
}

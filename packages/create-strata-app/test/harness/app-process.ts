/**
 * A `strata start` or `strata dev` process of a scaffolded app, for the tests: started on a free
 * port, ready once /readyz answers from a socket the command or a process it started listens
 * on, its output kept for failure messages, stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PortTakenError, onFreePort, treeListensOn } from '@strata/testing';

export interface AppProcess {
  readonly origin: string;
  readonly child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `command args` in `cwd` with `env`; resolves once `<origin>/readyz` is 200 from the
 * command or a process it started, and throws `PortTakenError` when another process answers there.
 */
export async function startAppProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; port: number; timeoutMs?: number },
): Promise<AppProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: stop() ends the command and what it started (npx, a dev child).
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const origin = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const app: AppProcess = {
    origin,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  const until = Date.now() + (options.timeoutMs ?? 30_000);
  while (Date.now() < until) {
    if (child.exitCode !== null) {
      // strata refuses a port in use before starting anything (its PortInUseError).
      if (output.includes(`Port ${options.port} is in use`))
        throw new PortTakenError('the app', options.port);
      throw new Error(`${command} ${args.join(' ')} exited:\n${output}`);
    }
    const ready = await fetch(`${origin}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) {
      // A free port picked for the app can be taken by another test's server before the app
      // binds it; that server would then answer in the app's place.
      if ((await treeListensOn(child.pid!, options.port)) !== false) return app;
      await app.stop();
      throw new PortTakenError('the app', options.port);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await app.stop();
  throw new Error(`${command} ${args.join(' ')} was not ready on ${origin}:\n${output}`);
}

/** Polls `check` every 50 ms until it returns true or `ms` pass; returns the time it took. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${ms} ms`);
}

/**
 * `<strata> dev|start --port <a free port>` in `app` (`strata`: the command and the arguments
 * before `dev`, e.g. `['npx', 'strata']`). `start` is production: the app's .env names port
 * 3000 in PUBLIC_ORIGINS, so this port's origin is given instead. A port taken before the app
 * bound it is picked again, up to five times.
 */
export async function startStrata(
  strata: readonly string[],
  mode: 'dev' | 'start',
  app: string,
  env: NodeJS.ProcessEnv,
): Promise<AppProcess> {
  const [command, ...before] = strata;
  return onFreePort((port) =>
    startAppProcess(command!, [...before, mode, '--port', String(port)], {
      cwd: app,
      env: mode === 'start' ? { ...env, PUBLIC_ORIGINS: `http://127.0.0.1:${port}` } : env,
      port,
    }),
  );
}

/**
 * Drives the production topology (docker-compose.yml at the repository root) from tests: a
 * project of its own, the gateway on a free 127.0.0.1 port, images built once per run.
 *
 * It spawns the compose CLI itself rather than going through testcontainers'
 * DockerComposeEnvironment or the `docker-compose` npm package: the commands are exactly the
 * ones operators type (docs/operations.md), v1 (`docker-compose`) and v2 (`docker compose`) are
 * both supported by one switch (STRATA_COMPOSE), and failures show the CLI's own output.
 */
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../harness/processes.js';

/** The repository root (the compose project directory). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `docker-compose` (v1) when present, else `docker compose` (v2); STRATA_COMPOSE overrides. */
export function composeCommand(): string[] {
  const configured = process.env['STRATA_COMPOSE'];
  if (configured) return configured.split(' ').filter(Boolean);
  const v1 = spawnSync('docker-compose', ['version'], { stdio: 'ignore' });
  return v1.status === 0 ? ['docker-compose'] : ['docker', 'compose'];
}

/** Runs a command; resolves with stdout, rejects with everything it printed. */
export function run(
  command: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string> {
  const [file = '', ...args] = command;
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: ROOT,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 300_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${command.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** A running compose project. */
export interface ComposeStack {
  readonly project: string;
  /** http://127.0.0.1:<port>, the gateway. */
  readonly url: string;
  readonly env: NodeJS.ProcessEnv;
  /** Runs `docker-compose -p <project> <args…>` with this stack's environment. */
  compose(...args: string[]): Promise<string>;
  /** The container id of a service (its first replica when it is scaled). */
  containerOf(service: string): Promise<string>;
  /** The container ids of every replica of a service. */
  containersOf(service: string): Promise<string[]>;
  /** Runs `count` replicas of `service`, leaving the running ones as they are (no recreate). */
  scale(service: string, count: number): Promise<string>;
  /** Waits until every listed service reports healthy. */
  waitHealthy(services: readonly string[], timeoutMs?: number): Promise<void>;
  /** Logs of every service (for failure messages). */
  logs(): Promise<string>;
  /** Polls the services' logs until a line matches (15 s); resolves with that line. */
  waitForLog(services: readonly string[], matches: (line: string) => boolean): Promise<string>;
  /** `down -v`: containers, networks and volumes of the project. */
  down(): Promise<void>;
}

export interface ComposeOptions {
  /** Extra variables (they win over .env, like a shell's). */
  readonly env?: Record<string, string>;
  /** Extra compose files layered over docker-compose.yml (paths from the repository root). */
  readonly overrides?: readonly string[];
  /** A page of the served app that answers 200 once the stack is up (default: the catalogue's). */
  readonly readyPath?: string;
}

/** Starts the whole stack from the images the global setup built (`up --no-build`). */
export async function startComposeStack(
  name: string,
  options: ComposeOptions = {},
): Promise<ComposeStack> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const project = `strata-${name}-${process.pid}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DOCKER_BUILDKIT: '0',
    COMPOSE_DOCKER_CLI_BUILD: '0',
    GATEWAY_PORT: String(port),
    PUBLIC_ORIGINS: url,
    // The tests drive the benchmark pages (the bench app's) and the drill pages, neither
    // served by the committed .env.
    RENDER_APP: '@strata/app-bench',
    RENDER_ERROR_DRILLS: 'true',
    ...options.env,
  };
  const files = ['docker-compose.yml', ...(options.overrides ?? [])].flatMap((file) => [
    '-f',
    file,
  ]);
  const base = [...composeCommand(), '-p', project, ...files];
  const compose = (...args: string[]) => run([...base, ...args], { env });
  const stack: ComposeStack = {
    project,
    url,
    env,
    compose,
    async containerOf(service) {
      const [id] = await stack.containersOf(service);
      if (!id) throw new Error(`no container for ${service}`);
      return id;
    },
    async containersOf(service) {
      return (await compose('ps', '-q', service)).split('\n').filter(Boolean).sort();
    },
    scale: (service, count) =>
      compose(
        'up',
        '-d',
        '--no-deps',
        '--no-build',
        '--no-recreate',
        '--scale',
        `${service}=${count}`,
        service,
      ),
    async waitHealthy(services, timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const states = await Promise.all(
          services.map(async (service) => {
            const ids = await stack.containersOf(service);
            if (ids.length === 0) return `${service}: no container`;
            const unhealthy = await Promise.all(ids.map((id) => healthOf(service, id)));
            return unhealthy.filter(Boolean).join(', ');
          }),
        );
        const pending = states.filter(Boolean);
        if (pending.length === 0) return;
        if (Date.now() > until) throw new Error(`not healthy: ${pending.join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      /** '' when healthy, else why not. */
      async function healthOf(service: string, id: string): Promise<string> {
        const health = JSON.parse(
          await run(['docker', 'inspect', '-f', '{{json .State.Health}}', id]),
        ) as { Status: string; Log?: { ExitCode: number; Output: string }[] } | null;
        if (health?.Status === 'healthy') return '';
        // The last probe's own words say why (a timeout, a refused connection, …).
        const last = health?.Log?.at(-1);
        const probe = last ? ` (last probe: exit ${last.ExitCode}, ${last.Output.trim()})` : '';
        return `${service} ${id.slice(0, 12)}: ${health?.Status ?? 'no health check'}${probe}`;
      }
    },
    logs: () => compose('logs', '--no-color', '--tail=80'),
    async waitForLog(services, matches) {
      const until = Date.now() + 15_000;
      for (;;) {
        const logs = await compose('logs', '--no-color', ...services);
        const line = logs.split('\n').find(matches);
        if (line) return line;
        if (Date.now() > until) throw new Error(`no log line matched in ${services.join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    },
    async down() {
      await compose('down', '-v', '--remove-orphans', '--timeout', '5');
    },
  };
  try {
    await compose('up', '-d', '--no-build');
    await stack.waitHealthy(['gateway', 'render', 'relay', 'data']);
    await waitForGateway(url, options.readyPath ?? '/bench/items');
  } catch (error) {
    const logs = await stack.logs().catch(() => '');
    await stack.down().catch(() => undefined);
    throw new Error(`${String(error)}\n--- logs ---\n${logs}`, { cause: error });
  }
  return stack;
}

async function waitForGateway(url: string, path: string): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`${url}${path}`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > until) throw new Error(`${url}${path} answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** When each part of a streamed answer arrived, in ms since the request started. */
export interface StreamTiming {
  readonly status: number;
  readonly headers: Headers;
  readonly firstByteMs: number;
  readonly totalMs: number;
  readonly body: string;
  /** ms at which `marker` first appeared in the decoded body (undefined: never). */
  readonly markers: Readonly<Record<string, number | undefined>>;
}

/** GETs `url` and records when the first body bytes and each marker arrived. */
export async function timeStream(
  url: string,
  markers: readonly string[],
  headers: Record<string, string> = {},
): Promise<StreamTiming> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  const seen: Record<string, number | undefined> = {};
  let body = '';
  let firstByteMs: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const now = performance.now() - started;
    if (value.byteLength > 0) firstByteMs ??= now;
    body += decoder.decode(value, { stream: true });
    for (const marker of markers)
      if (seen[marker] === undefined && body.includes(marker)) seen[marker] = now;
  }
  return {
    status: response.status,
    headers: response.headers,
    firstByteMs: firstByteMs ?? Number.NaN,
    totalMs: performance.now() - started,
    body,
    markers: seen,
  };
}

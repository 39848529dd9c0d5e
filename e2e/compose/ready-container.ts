/**
 * One render-service container run by a test outside a compose stack: `docker run -d` with the
 * given settings, its port 3000 published on the loopback interface only, ready once /readyz
 * answers 200. A container that stops, or is not ready within a minute, is removed and fails
 * the start with its logs.
 */
import { freePort } from '../harness/processes.js';
import { run } from './compose-stack.js';

export interface ReadyContainer {
  readonly origin: string;
  /** What it printed (stdout and stderr: start-up refusals go to stderr). */
  logs(): Promise<string>;
  /** Removes it with its anonymous volumes. */
  remove(): Promise<void>;
}

export interface ContainerSettings {
  readonly image: string;
  readonly name: string;
  /** Environment variables, as NAME=value, given the origin the container answers on. */
  readonly env: (origin: string) => readonly string[];
  /** Bind mounts, as host:container. */
  readonly volumes?: readonly string[];
  /** Names the container in errors ("the notes container"). */
  readonly what: string;
}

export async function runReadyContainer(settings: ContainerSettings): Promise<ReadyContainer> {
  const { image, name, what } = settings;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  await run([
    'docker',
    'run',
    '-d',
    '--name',
    name,
    '-p',
    `127.0.0.1:${port}:3000`,
    ...(settings.volumes ?? []).flatMap((volume) => ['-v', volume]),
    ...settings.env(origin).flatMap((variable) => ['-e', variable]),
    image,
  ]);
  const container: ReadyContainer = {
    origin,
    logs: () => run(['sh', '-c', `docker logs ${name} 2>&1`]).catch(String),
    remove: () =>
      run(['docker', 'rm', '-f', '-v', name]).then(
        () => undefined,
        () => undefined,
      ),
  };
  const until = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${origin}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return container;
    const state = (await run(['docker', 'inspect', '-f', '{{.State.Status}}', name])).trim();
    if (state !== 'running' || Date.now() > until) {
      const logs = await container.logs();
      await container.remove();
      throw new Error(`${what} is ${state}, not ready:\n${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A scaffolded app's own Dockerfile, built and run as its README says: the app from the
 * tarballs (the consumer test's pack, scaffold and offline install, which writes the
 * package-lock.json the Dockerfile's `npm ci` needs), `docker build`, then `docker run` with the
 * production settings (a random ACTION_SALT, PUBLIC_ORIGINS). The image build fetches the
 * registry packages from the npm registry, as a user's does; the @strata ones come from packs/.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postMessage,
  readStreamed,
} from '../../packages/create-strata-app/test/harness/app-requests.js';
import {
  installOffline,
  scaffoldFromPacks,
} from '../../packages/create-strata-app/test/harness/consumer-app.js';
import { run } from './compose-stack.js';
import { IMAGE_TAG } from './images.js';
import { runReadyContainer, type ReadyContainer } from './ready-container.js';

const image = `strata-app-image:${IMAGE_TAG}`;
const name = `strata-app-image-${IMAGE_TAG}-${process.pid}`;
const folder = mkdtempSync(join(tmpdir(), 'strata-app-image-'));
// What a developer's shell has; the repository's settings stay out.
const env = { PATH: process.env['PATH'], HOME: process.env['HOME'] };
let container: ReadyContainer | undefined;
let built = false;

beforeAll(async () => {
  const app = await scaffoldFromPacks(folder, env);
  await installOffline(app, env);
  const building = performance.now();
  await run(['docker', 'build', '--network', 'host', '-q', '-t', image, app], {
    env: { ...process.env, DOCKER_BUILDKIT: '0' },
    timeoutMs: 600_000,
  });
  built = true;
  console.log(`[app-image] built in ${((performance.now() - building) / 1000).toFixed(1)} s`);
  container = await runReadyContainer({
    image,
    name,
    env: (published) => [
      `ACTION_SALT=${randomBytes(24).toString('hex')}`,
      `PUBLIC_ORIGINS=${published}`,
      'LOG_LEVEL=warn',
    ],
    what: "the app's container",
  });
}, 900_000);

afterAll(async () => {
  await container?.remove();
  if (built) await run(['docker', 'rmi', '-f', image]).catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
}, 120_000);

describe("a scaffolded app's Dockerfile", () => {
  it('runs in production mode', async () => {
    const configured = await run(['docker', 'inspect', '-f', '{{json .Config.Env}}', name]);
    expect(JSON.parse(configured) as string[]).toContain('NODE_ENV=production');
  });

  it('streams the loading view, then the page and its deferred part', async () => {
    const { chunks } = await readStreamed(`${container!.origin}/slow`);
    const at = (text: string) => chunks.find((chunk) => chunk.text.includes(text))?.at ?? -1;
    expect(at('Loading the streamed page…')).toBeGreaterThanOrEqual(0);
    expect(at('Rendered at')).toBeGreaterThan(at('Loading the streamed page…'));
    expect(at('Sunny, with a chance of streamed HTML.')).toBeGreaterThanOrEqual(at('Rendered at'));
  });

  it('runs the action posted from its public origin', async () => {
    const posted = await postMessage(container!.origin, 'Hello from the image');
    expect(posted.status).toBe(303);
    expect(await (await fetch(`${container!.origin}/`)).text()).toContain('Hello from the image');
  });
});

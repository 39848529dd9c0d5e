/**
 * The service images, built from our Dockerfiles exactly as docker-compose.yml builds them
 * (same tags, so a run builds each image once and every test reuses it).
 */
import { run } from './compose-stack.js';

/** The tag docker-compose.yml gives the images (STRATA_TAG, `local` in .env). */
export const IMAGE_TAG = process.env['STRATA_TAG'] || 'local';

const built = new Map<string, Promise<string>>();

/**
 * Builds `strata-<service>:<tag>` from services/<service>/Dockerfile (cached layers: seconds),
 * once per process; with STRATA_SKIP_IMAGE_BUILD=1 (the global setup or CI built it) it only
 * names the image.
 */
export function serviceImage(service: 'data' | 'relay' | 'render'): Promise<string> {
  const image = `strata-${service}:${IMAGE_TAG}`;
  if (process.env['STRATA_SKIP_IMAGE_BUILD'] === '1') return Promise.resolve(image);
  let pending = built.get(image);
  if (!pending) {
    pending = run(
      [
        'docker',
        'build',
        '--network',
        'host',
        '-q',
        '-f',
        `services/${service}/Dockerfile`,
        '-t',
        image,
        '.',
      ],
      { env: { ...process.env, DOCKER_BUILDKIT: '0' }, timeoutMs: 600_000 },
    ).then(() => image);
    built.set(image, pending);
  }
  return pending;
}

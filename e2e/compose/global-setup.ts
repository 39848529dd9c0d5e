/**
 * Builds the three service images once per run, before any test file starts (the same tags
 * docker-compose.yml uses, so `up --no-build` and testcontainers both find them). Cached layers
 * make this a few seconds when nothing changed; `STRATA_SKIP_IMAGE_BUILD=1` skips it when a CI
 * step has just built them.
 */
import { serviceImage } from './images.js';

export default async function setup(): Promise<void> {
  if (process.env['STRATA_SKIP_IMAGE_BUILD'] === '1') return;
  const started = performance.now();
  // One at a time: the first builds the shared stage, the others reuse its layers.
  for (const service of ['render', 'data', 'relay'] as const) await serviceImage(service);
  console.log(`[compose] images built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// The render A/B scenario: each side is a data service (in memory) and a render service without
// a segment cache from a built checkout, loaded on `/bench/items` (the anchor page; RENDER_AB_PATH
// loads another path, e.g. the catalogue's `/api/items`). Both sides stay up for the whole run;
// each measurement is a 1 s warm-up and then DURATION seconds.
import { SERVICE_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { cpuMs } from '../kit/cpu.mjs';
import { load, warmUp } from '../kit/load.mjs';
import { freePort } from '../kit/ports.mjs';
import { cpuMsPerRequest } from '../kit/proc-stat.mjs';
import { startService } from '../kit/service.mjs';
import { assignmentsOf, flagsOf, wordsOf } from '../kit/settings.mjs';
import { BENCH_DATA_ENV, benchRenderEnv } from './lib/service-env.mjs';

export const name = 'render';
export const metrics = [
  { key: 'pagesPerSecond', label: 'pages/s', better: 'higher' },
  { key: 'renderCpuMs', label: 'CPU ms/page (render service)', better: 'lower' },
  { key: 'dataCpuMs', label: 'CPU ms/page (data service)', better: 'lower' },
];

/**
 * One side from the environment (ab-pairs.mjs's interface): <L> the checkout, <L>_BASE_FLAGS
 * (instead of the deployed flags; `none` for none), <L>_RENDER_ARGS, <L>_DATA_ARGS (after them),
 * <L>_DATA_ENV (`VAR=value …` for the data service).
 */
export function sideFromEnv(env, label, defaultRoot) {
  const base = flagsOf(env[`${label}_BASE_FLAGS`], SERVICE_NODE_FLAGS);
  return {
    root: env[label] || defaultRoot,
    renderFlags: [...base, ...wordsOf(env[`${label}_RENDER_ARGS`])],
    dataFlags: [...base, ...wordsOf(env[`${label}_DATA_ARGS`])],
    dataEnv: assignmentsOf(env[`${label}_DATA_ENV`]),
  };
}

/** A side with the deployed flags and nothing else: what the guard compares. */
export const plainSide = (root) => sideFromEnv({}, 'A', root);

async function startPair(side) {
  const dataPort = await freePort();
  const renderPort = await freePort();
  const data = await startService({
    root: side.root,
    script: 'services/data/dist/main.js',
    flags: side.dataFlags,
    env: { LOG_LEVEL: 'warn', ...BENCH_DATA_ENV, DATA_PORT: String(dataPort), ...side.dataEnv },
    ready: { tcp: { host: '127.0.0.1', port: dataPort } },
  });
  const url = `http://127.0.0.1:${renderPort}${process.env.RENDER_AB_PATH ?? '/bench/items'}`;
  const render = await startService({
    root: side.root,
    script: 'services/render/dist/main.js',
    flags: side.renderFlags,
    env: { LOG_LEVEL: 'warn', ...benchRenderEnv({ renderPort, dataPort, root: side.root }) },
    ready: { http: url },
  }).catch(async (error) => {
    await data.stop();
    throw error;
  });
  return { data, render, url };
}

/** Starts both sides, warms them, and measures one side at a time. */
export async function open(sides, { duration, connections = 50, warmup = 3 }) {
  const pairs = {};
  const close = () =>
    Promise.all(Object.values(pairs).flatMap((pair) => [pair.render.stop(), pair.data.stop()]));
  try {
    pairs.A = await startPair(sides.A);
    pairs.B = await startPair(sides.B);
    for (const pair of Object.values(pairs)) await warmUp({ url: pair.url, connections }, warmup);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    /** The page a side is loaded on. */
    url: (label) => pairs[label].url,
    async measure(label) {
      const { url, render, data } = pairs[label];
      await warmUp({ url, connections }, 1);
      const before = { render: cpuMs(render.pid), data: cpuMs(data.pid) };
      const outcome = await load({ url, connections, duration });
      if (outcome.failed > 0) throw new Error(`${label}: ${outcome.failed} failed requests`);
      return {
        pagesPerSecond: outcome.perSecond,
        renderCpuMs: cpuMsPerRequest(before.render, cpuMs(render.pid), outcome.completed),
        dataCpuMs: cpuMsPerRequest(before.data, cpuMs(data.pid), outcome.completed),
      };
    },
    close,
  };
}

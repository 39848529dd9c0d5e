// The render A/B scenario: each side is a data service (in memory) and a render service without
// a segment cache from a built checkout, loaded on `/bench/items` (the anchor page; RENDER_AB_PATH
// loads another path, e.g. the catalogue's `/api/items`). Both sides stay up for the session;
// each measurement is a 1 s warm-up and then DURATION seconds, of one side or of both at once.
import { RENDER_SERVICE_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { measureLoad, warmUpAll } from '../kit/measure-load.mjs';
import { freePort } from '../kit/ports.mjs';
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
 * <L>_DATA_ENV (`VAR=value …` for the data service), <L>_NODE (the node binary both services run
 * on; default: the one running the bench).
 */
export function sideFromEnv(env, label, defaultRoot) {
  const baseFlags = env[`${label}_BASE_FLAGS`];
  return {
    root: env[label] || defaultRoot,
    renderFlags: [
      ...flagsOf(baseFlags, RENDER_SERVICE_NODE_FLAGS),
      ...wordsOf(env[`${label}_RENDER_ARGS`]),
    ],
    dataFlags: [...flagsOf(baseFlags, SERVICE_NODE_FLAGS), ...wordsOf(env[`${label}_DATA_ARGS`])],
    dataEnv: assignmentsOf(env[`${label}_DATA_ENV`]),
    ...(env[`${label}_NODE`] && { node: env[`${label}_NODE`] }),
  };
}

/** A side with the deployed flags and nothing else: what the guard compares. */
export const plainSide = (root) => sideFromEnv({}, 'A', root);

/** Its sessions can load both sides in the same seconds (TOGETHER=1). */
export const measuresTogether = true;

/** `pin`: `{ render, data }` CPU lists for `taskset -c` (either optional). */
async function startPair(side, pin) {
  const dataPort = await freePort();
  const renderPort = await freePort();
  const data = await startService({
    root: side.root,
    script: 'services/data/dist/main.js',
    flags: side.dataFlags,
    node: side.node,
    env: { LOG_LEVEL: 'warn', ...BENCH_DATA_ENV, DATA_PORT: String(dataPort), ...side.dataEnv },
    ready: { tcp: { host: '127.0.0.1', port: dataPort } },
    cpus: pin.data,
  });
  const url = `http://127.0.0.1:${renderPort}${process.env.RENDER_AB_PATH ?? '/bench/items'}`;
  const render = await startService({
    root: side.root,
    script: 'services/render/dist/main.js',
    flags: side.renderFlags,
    node: side.node,
    env: { LOG_LEVEL: 'warn', ...benchRenderEnv({ renderPort, dataPort, root: side.root }) },
    ready: { http: url },
    cpus: pin.render,
  }).catch(async (error) => {
    await data.stop();
    throw error;
  });
  return { data, render, url };
}

/** The pages/s and each service's CPU per page of `pairs` (by label), loaded in the same seconds. */
async function measurePairs(pairs, { connections, duration }) {
  const targets = Object.fromEntries(
    Object.entries(pairs).map(([label, { url, render, data }]) => [
      label,
      { url, pids: { render: render.pid, data: data.pid } },
    ]),
  );
  await warmUpAll(targets, { connections }, 1);
  const measured = await measureLoad(targets, { connections, duration });
  return Object.fromEntries(
    Object.entries(measured).map(([label, { perSecond, cpuMs }]) => [
      label,
      { pagesPerSecond: perSecond, renderCpuMs: cpuMs.render, dataCpuMs: cpuMs.data },
    ]),
  );
}

/**
 * Starts both sides, in `startOrder` (`pin`: `{ render, data }` CPU lists), and warms them;
 * measures one side at a time, or with `measureTogether` both at once, each with its own
 * `connections`.
 */
export async function open(
  sides,
  { duration, connections = 50, warmup = 3, together, pin = {} },
  startOrder = ['A', 'B'],
) {
  const pairs = {};
  const close = () =>
    Promise.all(Object.values(pairs).flatMap((pair) => [pair.render.stop(), pair.data.stop()]));
  try {
    for (const label of startOrder) pairs[label] = await startPair(sides[label], pin);
    if (together) await warmUpAll(pairs, { connections }, warmup);
    else for (const pair of Object.values(pairs)) await warmUpAll([pair], { connections }, warmup);
  } catch (error) {
    await close();
    throw error;
  }
  const load = { connections, duration };
  return {
    /** The page a side is loaded on. */
    url: (label) => pairs[label].url,
    measure: async (label) => (await measurePairs({ [label]: pairs[label] }, load))[label],
    /** Both sides under load in the same seconds; `order` is the order their loads start in. */
    measureTogether: (order) =>
      measurePairs(Object.fromEntries(order.map((label) => [label, pairs[label]])), load),
    close,
  };
}

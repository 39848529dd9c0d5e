// The sides of the like-for-like anchor comparison (bench/render/like-for-like.mjs): the minimal
// Fastify + React renderer as the anchor benchmark runs it, the same with each of what Strata's
// page carries switched on (bench/anchors/fastify-react-data/server.mjs), and Strata's render
// service. Every side has a data service of its own (in memory, seeded with the anchors' data),
// idle for the sides that read from memory, so each side's processes are started alike.
import { REPO } from '../../kit/out.mjs';
import { freePort } from '../../kit/ports.mjs';
import { startService } from '../../kit/service.mjs';
import { startData, startRender } from './pair.mjs';

const ANCHOR = 'bench/anchors/fastify-react-data/server.mjs';

/** `label → what the renderer is`; `anchor` sides set the anchor's switches. */
export const SIDES = {
  minimal: { anchor: {} },
  'minimal+hydration': { anchor: { HYDRATION: 'true' } },
  'minimal+hydration+grpc-js': { anchor: { HYDRATION: 'true', readsDataService: true } },
  'minimal+hydration+strata-client': {
    anchor: { HYDRATION: 'true', DATA_CLIENT: 'strata', readsDataService: true },
  },
  strata: { strata: true },
};

/** The sides named in `list` (comma-separated labels), in that order. */
export function sidesNamed(list) {
  const labels = list.split(',').filter(Boolean);
  for (const label of labels)
    if (!SIDES[label])
      throw new Error(`no side "${label}"; the sides are ${Object.keys(SIDES).join(', ')}`);
  if (labels.length < 2) throw new Error('name at least two sides');
  return labels;
}

async function startAnchor({ readsDataService, ...switches }, dataPort, flags, keepStdout) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/bench/items`;
  const env = { PORT: String(port), HOST: '127.0.0.1', ...switches };
  if (readsDataService) env.DATA_SERVICE_ADDRESS = `127.0.0.1:${dataPort}`;
  // Plain node, as the anchor benchmark starts its renderers.
  const renderer = await startService({
    root: REPO,
    script: ANCHOR,
    flags,
    env,
    ready: { http: url },
    keepStdout,
  });
  return { ...renderer, url };
}

/**
 * Starts the side `label` (its data service, then its renderer; `flags`: node flags for the
 * renderer, after the deployed ones for Strata's, or after `strataBaseFlags` instead of them;
 * `keepStdout`: the renderer's stdout readable as `stdout`); resolves when both answer.
 */
export async function startSide(label, { flags = [], strataBaseFlags, keepStdout = false } = {}) {
  const data = await startData();
  try {
    const side = SIDES[label];
    const renderer = side.strata
      ? await startRender({
          dataPort: data.port,
          flags,
          ...(strataBaseFlags && { baseFlags: strataBaseFlags }),
          keepStdout,
        }).then((r) => ({
          ...r,
          url: `${r.url}/bench/items`,
        }))
      : await startAnchor(side.anchor, data.port, flags, keepStdout);
    return {
      url: renderer.url,
      stdout: renderer.child.stdout,
      pids: { render: renderer.pid, data: data.pid },
      stop: () => Promise.all([renderer.stop(), data.stop()]),
    };
  } catch (error) {
    await data.stop();
    throw error;
  }
}

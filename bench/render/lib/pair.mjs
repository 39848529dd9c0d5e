// The render benches' two services, started by the kit: the data service in memory behind a
// render service without a segment cache (service-env.mjs's environments), each on a free port
// unless one is named, with the deployed node flags first (`baseFlags`) and the bench's own after.
import { REPO } from '../../kit/out.mjs';
import { freePort } from '../../kit/ports.mjs';
import { startService } from '../../kit/service.mjs';
import { RENDER_SERVICE_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../../scripts/stack/services.mjs';
import { BENCH_DATA_ENV, benchRenderEnv } from './service-env.mjs';

/** The data service of the build at `root`; resolves once its gRPC port accepts. */
export async function startData({
  root = REPO,
  port,
  flags = [],
  baseFlags = SERVICE_NODE_FLAGS,
  env = {},
  ...rest
} = {}) {
  port ??= await freePort();
  const service = await startService({
    root,
    script: 'services/data/dist/main.js',
    flags: [...baseFlags, ...flags],
    env: { LOG_LEVEL: 'warn', ...BENCH_DATA_ENV, DATA_PORT: String(port), ...env },
    ready: { tcp: { host: '127.0.0.1', port } },
    ...rest,
  });
  return { ...service, port };
}

/** The render service in front of `dataPort`; resolves once /bench/items answers 200. */
export async function startRender({
  root = REPO,
  port,
  dataPort,
  flags = [],
  baseFlags = RENDER_SERVICE_NODE_FLAGS,
  env = {},
  ...rest
}) {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = await startService({
    root,
    script: 'services/render/dist/main.js',
    flags: [...baseFlags, ...flags],
    env: { LOG_LEVEL: 'warn', ...benchRenderEnv({ renderPort: port, dataPort, root }), ...env },
    ready: { http: `${url}/bench/items` },
    ...rest,
  });
  return { ...service, port, url };
}

/** Both, data first; `stop()` stops the render service, then the data service. */
export async function startPair({ root, data = {}, render = {} } = {}) {
  const dataService = await startData({ root, ...data });
  const renderService = await startRender({ root, dataPort: dataService.port, ...render }).catch(
    async (error) => {
      await dataService.stop();
      throw error;
    },
  );
  return {
    data: dataService,
    render: renderService,
    stop: async () => {
      await renderService.stop();
      await dataService.stop();
    },
  };
}

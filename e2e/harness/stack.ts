/**
 * The data and render services as processes on free ports (embedded PGlite in memory), the
 * render service serving the bench app (the catalogue plus /bench/*).
 */
import { localUrl, startOnFreePort, type ServiceProcess } from './processes.js';

/** The running stack. */
export interface LocalStack {
  readonly renderUrl: string;
  readonly services: readonly ServiceProcess[];
  stop(): Promise<void>;
}

/** The render service on `port` serving the bench app from the data service on `dataPort`. */
export function benchAppRenderEnv(port: number, dataPort: number): Record<string, string> {
  return {
    RENDER_PORT: String(port),
    DATA_SERVICE_ADDRESS: `127.0.0.1:${dataPort}`,
    PUBLIC_ORIGINS: localUrl(port),
    ACTION_SALT: 'e2e-action-salt',
    RENDER_APP: '@strata/app-bench',
    RENDER_ERROR_DRILLS: 'true',
    LOG_LEVEL: 'warn',
  };
}

/** Starts data then render; `renderEnv` adds render settings. */
export async function startLocalStack(renderEnv: Record<string, string> = {}): Promise<LocalStack> {
  const data = await startOnFreePort(
    'data',
    'services/data/dist/main.js',
    (port) => ({ DATA_PORT: String(port), DATA_DIR: 'memory://', LOG_LEVEL: 'warn' }),
    (port) => ({ port }),
  );
  const render = await startOnFreePort(
    'render',
    'services/render/dist/main.js',
    (port) => ({ ...benchAppRenderEnv(port, data.port), ...renderEnv }),
    (port) => ({ url: `${localUrl(port)}/healthz` }),
  ).catch(async (error: unknown) => {
    await data.stop();
    throw error;
  });
  return {
    renderUrl: localUrl(render.port),
    services: [data, render],
    async stop() {
      await render.stop();
      await data.stop();
    },
  };
}

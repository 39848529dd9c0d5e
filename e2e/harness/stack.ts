/**
 * The data and render services as processes on free ports (embedded PGlite in memory), the
 * render service serving the bench app (the catalogue plus /bench/*).
 */
import { freePort, startProcess, type ServiceProcess } from './processes.js';

/** The running stack. */
export interface LocalStack {
  readonly renderUrl: string;
  readonly services: readonly ServiceProcess[];
  stop(): Promise<void>;
}

/** Starts data then render; `renderEnv` adds render settings. */
export async function startLocalStack(renderEnv: Record<string, string> = {}): Promise<LocalStack> {
  const dataPort = await freePort();
  const renderPort = await freePort();
  const renderUrl = `http://127.0.0.1:${renderPort}`;
  const data = await startProcess(
    'data',
    'services/data/dist/main.js',
    { DATA_PORT: String(dataPort), DATA_DIR: 'memory://', LOG_LEVEL: 'warn' },
    { port: dataPort },
  );
  const render = await startProcess(
    'render',
    'services/render/dist/main.js',
    {
      RENDER_PORT: String(renderPort),
      DATA_SERVICE_ADDRESS: `127.0.0.1:${dataPort}`,
      PUBLIC_ORIGINS: renderUrl,
      ACTION_SALT: 'e2e-action-salt',
      RENDER_APP: '@strata/app-bench',
      RENDER_ERROR_DRILLS: 'true',
      LOG_LEVEL: 'warn',
      ...renderEnv,
    },
    { url: `${renderUrl}/healthz` },
  ).catch(async (error: unknown) => {
    await data.stop();
    throw error;
  });
  return {
    renderUrl,
    services: [data, render],
    async stop() {
      await render.stop();
      await data.stop();
    },
  };
}

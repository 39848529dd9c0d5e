/**
 * The whole stack with telemetry on, as processes: a recording upstream, the relay in front of
 * it, and the data and render services reporting to one DSN through the relay. Browsers reach
 * the render service directly, which forwards the tunnel path to the relay (no gateway).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explainFailure } from './explain-failure.js';
import { localUrl, startOnFreePort, type ServiceProcess } from './processes.js';
import { benchAppRenderEnv } from './stack.js';
import { startRecordingUpstream, type RecordingUpstream } from './recording-upstream.js';

/** Lines of each service's output a failed wait shows. */
const OUTPUT_TAIL_LINES = 40;

/** The DSN everything reports to (the relay allows exactly this one). */
export const TEST_DSN = 'http://e2e0public0key@127.0.0.1:9/42';

/** The running stack. */
export interface TelemetryStack {
  readonly renderUrl: string;
  readonly upstream: RecordingUpstream;
  readonly services: readonly ServiceProcess[];
  stop(): Promise<void>;
}

/** Starts upstream, relay, data and render; `renderEnv` and `relayEnv` add settings. */
export async function startTelemetryStack(
  renderEnv: Record<string, string> = {},
  relayEnv: Record<string, string> = {},
): Promise<TelemetryStack> {
  const upstream = await startRecordingUpstream();
  const spool = await mkdtemp(join(tmpdir(), 'strata-e2e-spool-'));
  const started: ServiceProcess[] = [];
  const stop = async () => {
    for (const service of [...started].reverse()) await service.stop();
    await upstream.close();
    await rm(spool, { recursive: true, force: true });
  };
  try {
    const relay = await startOnFreePort(
      'relay',
      'services/relay/dist/main.js',
      (port) => ({
        RELAY_PORT: String(port),
        RELAY_DSNS: TEST_DSN,
        RELAY_UPSTREAM: upstream.origin,
        RELAY_SPOOL_DIR: spool,
        RELAY_TRUST_PROXY: 'true',
        RELAY_CLIENT_REPORT_INTERVAL: '1s',
        RELAY_LOG_LEVEL: 'warn',
        ...relayEnv,
      }),
      (port) => ({ url: `${localUrl(port)}/healthz` }),
    );
    started.push(relay);
    const telemetry = {
      SENTRY_DSN: TEST_DSN,
      SENTRY_ENVIRONMENT: 'e2e',
      RELAY_URL: localUrl(relay.port),
    };
    const data = await startOnFreePort(
      'data',
      'services/data/dist/main.js',
      (port) => ({
        ...telemetry,
        DATA_PORT: String(port),
        DATA_DIR: 'memory://',
        LOG_LEVEL: 'warn',
      }),
      (port) => ({ port }),
    );
    started.push(data);
    const render = await startOnFreePort(
      'render',
      'services/render/dist/main.js',
      (port) => ({
        ...telemetry,
        ...benchAppRenderEnv(port, data.port),
        // Every navigation reaches the data service, so its spans are in every trace.
        SEGMENT_CACHE: 'false',
        ...renderEnv,
      }),
      (port) => ({ url: `${localUrl(port)}/healthz` }),
    );
    started.push(render);
    const renderUrl = localUrl(render.port);
    return { renderUrl, upstream: explainingWaits(upstream, started), services: started, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The recorder, whose failed waits also show what the services logged (the relay's and the
 * render service's warnings say where an envelope stopped).
 */
function explainingWaits(
  upstream: RecordingUpstream,
  services: readonly ServiceProcess[],
): RecordingUpstream {
  return {
    ...upstream,
    waitFor: (...args) => explainFailure(upstream.waitFor(...args), () => outputTails(services)),
  };
}

function outputTails(services: readonly ServiceProcess[]): string {
  return services
    .map((service) => {
      const lines = service.output().trimEnd().split('\n').slice(-OUTPUT_TAIL_LINES);
      const shown = lines.join('\n').trim() || '(nothing)';
      return `${service.name} logged:\n${shown}`;
    })
    .join('\n');
}

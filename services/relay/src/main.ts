/**
 * Composition root: reads the environment once, builds the relay, listens, and shuts down
 * gracefully on SIGTERM/SIGINT (stop accepting, let in-flight sends finish or stay spooled,
 * flush client reports, close the spool). The only file that touches `process`.
 */
import { ConfigError } from '@strata/config';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { loadRelayConfig, withDevDefaults, type RelayConfig } from './config.js';
import { refuseDevelopmentSettings } from './production-guard.js';

const env = process.env.RELAY_DEV_DEFAULTS === '1' ? withDevDefaults(process.env) : process.env;
let config: RelayConfig;
try {
  config = refuseDevelopmentSettings(loadRelayConfig(env), env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(78); // EX_CONFIG, as the other services
}
const logger = pino({
  level: config.RELAY_LOG_LEVEL,
  base: { service: 'relay' },
  // Envelope bodies are never logged; DSN secrets never reach the logger (only project:key).
  redact: ['req.headers.authorization', 'req.headers["x-sentry-auth"]', 'req.headers.cookie'],
});

const relay = await buildApp({
  config,
  logger,
  processMetrics: true,
  // Another replica took this one's spool slot (it stalled past the lease): writing on would
  // corrupt the slot, and everything acknowledged is already in it.
  onSpoolLeaseLost: (error) => {
    logger.fatal({ err: error }, 'spool slot lease lost; exiting');
    process.exit(70);
  },
});
await relay.app.listen({ port: config.RELAY_PORT, host: config.RELAY_HOST });
logger.info(
  {
    dsns: config.RELAY_DSNS.length,
    upstream: config.RELAY_UPSTREAM_KIND,
    tunnel: config.RELAY_TUNNEL_PATH,
  },
  'relay ready',
);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  try {
    await relay.shutdown(config.RELAY_SHUTDOWN_TIMEOUT);
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

/**
 * Composition root of the data service: the only file that reads process.env, creates the
 * logger and handles signals.
 */
import { ConfigError } from '@strata/config';
import { startNodeTelemetry } from '@strata/telemetry';
import { pino } from 'pino';
import { loadDataConfig } from './config.js';
import { startDataService } from './data-service.js';
import { refuseDevelopmentSettings } from './production-guard.js';

async function main(): Promise<void> {
  let config;
  try {
    config = refuseDevelopmentSettings(loadDataConfig(process.env), process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = pino({ name: 'data', level: config.LOG_LEVEL });
  const telemetry = startNodeTelemetry(config, { service: 'data' });
  const service = await startDataService(config, logger, telemetry);

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    service
      .stop()
      .then(() => telemetry.close(2000))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('data service failed to start:', error);
  process.exit(1);
});

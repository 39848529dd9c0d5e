/**
 * Readiness that means it: the gRPC health status is SERVING only while the database answers.
 * `SELECT 1` runs every `intervalMs` with a `timeoutMs` limit; the status (and a log line)
 * changes only when the answer does. Calls are still served either way: a read during an outage
 * gets DATA_UNAVAILABLE, which is what a client that ignores health would see anyway.
 */
import type { Logger } from 'pino';
import type { Reader } from './storage/database.js';

export interface DatabaseReadiness {
  /** Whether the last check got an answer. */
  ready(): boolean;
  stop(): void;
}

export function watchDatabaseReadiness(
  database: Reader,
  setServing: (serving: boolean) => void,
  options: { readonly logger: Logger; readonly intervalMs?: number; readonly timeoutMs?: number },
): DatabaseReadiness {
  const intervalMs = options.intervalMs ?? 2000;
  const timeoutMs = options.timeoutMs ?? 1000;
  let ready = true;
  let checking = false;
  let stopped = false;

  async function check() {
    if (checking || stopped) return;
    checking = true;
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      database.read('SELECT 1').then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    checking = false;
    if (stopped || answered === ready) return;
    ready = answered;
    setServing(answered);
    if (answered) options.logger.info('database answers again: serving');
    else options.logger.warn({ timeoutMs }, 'database does not answer: NOT_SERVING');
  }

  const every = setInterval(() => void check(), intervalMs);
  every.unref();
  return {
    ready: () => ready,
    stop() {
      stopped = true;
      clearInterval(every);
    },
  };
}

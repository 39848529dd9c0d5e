/**
 * Starts a real relay (buildApp + listen on 127.0.0.1:0) against a fake upstream, with a temp
 * spool directory and a logger whose error lines become test problems.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { buildApp, type RelayApp } from '../../src/app.js';
import { loadRelayConfig } from '../../src/config.js';
import type { FakeUpstream } from './fake-upstream.js';

/** A running relay. */
export interface RelayUnderTest {
  readonly url: string;
  readonly relay: RelayApp;
  readonly spoolDir: string;
  readonly logs: Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** Starts a relay; `env` overrides the test defaults. */
export async function startRelay(
  upstream: FakeUpstream,
  env: Record<string, string>,
  options: { spoolDir?: string } = {},
): Promise<RelayUnderTest> {
  const spoolDir = options.spoolDir ?? (await mkdtemp(join(tmpdir(), 'relay-spool-')));
  const config = loadRelayConfig({
    RELAY_UPSTREAM: upstream.url,
    RELAY_SPOOL_DIR: spoolDir,
    RELAY_RETRY_BASE: '20ms',
    RELAY_RETRY_MAX: '100ms',
    RELAY_CLIENT_REPORT_INTERVAL: '1h',
    ...env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString('utf8')) as Record<string, unknown>;
      logs.push(line);
      if (typeof line.level === 'number' && line.level >= 50) {
        upstream.problems.push(`relay logged an error: ${String(line.msg)}`);
      }
      done();
    },
  });
  const relay = await buildApp({ config, logger: pino({ level: 'info' }, sink) });
  const address = await relay.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    relay,
    spoolDir,
    logs,
    async stop() {
      await relay.shutdown(2000);
      if (!options.spoolDir) await rm(spoolDir, { recursive: true, force: true });
    },
  };
}

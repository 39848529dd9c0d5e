// What the relay benches share: the envelope they post, node servers started on 127.0.0.1
// (ready when they print their URL), their CPU time, the relay's bench settings and the envelope
// load (all through bench/kit).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadResult } from '../../kit/load.mjs';
import { startService } from '../../kit/service.mjs';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));

// A real @sentry/browser 11.12 error envelope (tunnel form, DSN in the header).
export const fixture = readFileSync(
  join(repo, 'services/relay/test/fixtures/sdk/browser-03-event.envelope'),
);
export const dsn = JSON.parse(fixture.subarray(0, fixture.indexOf(10)).toString()).dsn;

/**
 * Starts `node ...argv` (node flags, then the script's absolute path) in the repo (on the CPUs
 * listed in `cpus`, e.g. "0", when given) through the kit; resolves with the URL it prints once
 * listening. NODE_ENV stays as the caller has it.
 */
export async function startServer(argv, env = {}, { cpus } = {}) {
  const { child, url } = await startService({
    root: repo,
    script: argv.at(-1),
    flags: argv.slice(0, -1),
    env,
    cpus,
    production: false,
    ready: { stdout: /(?:listening|Server listening at) (http:\/\/127\.0\.0\.1:\d+)/ },
  });
  return { child, url };
}

/** The commit a checkout is at (results name commits, not this machine's paths). */
export const commitOf = (root) =>
  execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();

/** CPU time (user + system, all threads) a process has used so far, in ms (the kit's reading). */
export { cpuMs } from '../../kit/cpu.mjs';

/** Stops a server with SIGTERM (a profiled one writes its profile then): the kit's stop. */
export { stopService as stopServer } from '../../kit/service.mjs';

/** The relay's settings in every bench run: the fixture's DSN, a 4 GiB spool, ready line on. */
export function relayBenchEnv(upstreamUrl, spoolDir) {
  return {
    RELAY_PORT: '0',
    RELAY_DSNS: dsn,
    RELAY_UPSTREAM: upstreamUrl,
    RELAY_SPOOL_DIR: spoolDir,
    RELAY_LOG_LEVEL: 'info', // the readiness line is at info; per-request lines are off
    RELAY_SPOOL_MAX_BYTES: String(4 * 1024 * 1024 * 1024),
    // Honest traffic from one load generator standing for many clients: the per-client request
    // limits are switched off.
    RELAY_RATE_LIMIT_PER_ADDRESS: '0',
    RELAY_RATE_LIMIT_PER_KEY: '0',
  };
}

/** The relay's tunnel path under its base `url`: where the benches post. */
export const tunnelUrl = (url) => `${url}/monitoring`;

// Each request carries an event id of its own, as real reports do: the relay answers a repeated
// id as a retry without spooling it again (docs/relay.md), so one fixed body would measure that
// short cut instead of the honest path.
const ID_AT = fixture.indexOf('"event_id":"') + '"event_id":"'.length;
const [BEFORE_ID, AFTER_ID] = [fixture.subarray(0, ID_AT), fixture.subarray(ID_AT + 32)];
let eventsPosted = 0;

/** The fixture with the next event id of this process (32 hex digits, as an SDK writes). */
export function nextFixture() {
  const id = Buffer.from((++eventsPosted).toString(16).padStart(32, '0'));
  return Buffer.concat([BEFORE_ID, id, AFTER_ID]);
}

/** The fixture as autocannon posts it (the request without its URL), a new event each time. */
export const ENVELOPE_POST = {
  method: 'POST',
  body: fixture,
  headers: { 'content-type': 'text/plain;charset=UTF-8' },
  requests: [
    {
      setupRequest(request) {
        request.body = nextFixture();
        return request;
      },
    },
  ],
};

/** The fixture posted to `url`'s tunnel path, as autocannon takes a request. */
export const envelopeRequest = (url) => ({ url: tunnelUrl(url), ...ENVELOPE_POST });

/** Posts the fixture for `duration` seconds (the kit's autocannon); autocannon's result. */
export const postEnvelopes = (url, { connections, duration }) =>
  loadResult({ ...envelopeRequest(url), connections, duration });

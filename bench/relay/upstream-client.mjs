// The relay's upstream client alone: CPU per send of undici's request() + body.dump() against
// dispatch() with a handler that keeps only the status (what services/relay/src/upstream/
// http-send.ts does), 64 sends in flight to the counting upstream, alternating.
// Usage (from the repo root): node bench/relay/upstream-client.mjs [--sends 40000] [--rounds 4]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dispatchSend } from './lib/dispatch-send.mjs';
import { fixture, repo, startServer, stopServer } from './lib/processes.mjs';

const { values } = parseArgs({
  options: {
    sends: { type: 'string', default: '40000' },
    rounds: { type: 'string', default: '4' },
  },
});
// The relay's own copy of undici, the version it ships with.
const { Agent } = createRequire(join(repo, 'services/relay/package.json'))('undici');

const upstream = await startServer([join(repo, 'bench/relay/upstream-server.mjs')]);
const agent = new Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 15_000 });
const options = {
  origin: upstream.url,
  path: '/api/1/envelope/',
  method: 'POST',
  headers: {
    'content-type': 'application/x-sentry-envelope',
    'content-length': String(fixture.length),
  },
  body: fixture,
};

async function viaRequest() {
  const response = await agent.request(options);
  await response.body.dump();
}

const viaDispatch = () => dispatchSend(agent, options);

/** CPU µs per send (this process: the client only) over `count` sends, 64 at a time. */
async function cpuPerSend(send, count) {
  let started = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (started < count) {
        started += 1;
        await send();
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

try {
  for (let round = 0; round < Number(values.rounds); round += 1) {
    const request = await cpuPerSend(viaRequest, Number(values.sends));
    const dispatch = await cpuPerSend(viaDispatch, Number(values.sends));
    console.log(
      `round ${round + 1}: request()+dump() ${request.toFixed(1)} µs, dispatch ${dispatch.toFixed(1)} µs of CPU per send`,
    );
  }
} finally {
  await agent.close();
  await stopServer(upstream.child);
}

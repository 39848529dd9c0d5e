/**
 * A recording upstream for the relay: a Sentry-ingest stand-in that stores every request it
 * gets and answers what the test tells it to. It listens on the Docker bridge's gateway
 * address, which containers reach as host.docker.internal (extra_hosts: host-gateway), so
 * traffic stays on the host and the containers' networks.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { run } from './compose-stack.js';

/** One request the upstream received. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** The body, decompressed. */
  readonly body: string;
  /** The status the recorder answered. */
  readonly status: number;
}

/** What the upstream answers; the default is 200 `{}`. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
}

export interface Recorder {
  /** Origin for the relay's RELAY_UPSTREAM (http://host.docker.internal:<port>). */
  readonly upstreamForContainers: string;
  /** Address as seen from the host. */
  readonly address: string;
  readonly requests: RecordedRequest[];
  answerWith(answer: UpstreamAnswer | undefined): void;
  /** Resolves once `predicate` holds for the recorded requests. */
  waitFor(
    predicate: (requests: readonly RecordedRequest[]) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  close(): Promise<void>;
}

/** The default bridge's gateway address (what host-gateway resolves to). */
export async function bridgeGateway(): Promise<string> {
  const raw = await run([
    'docker',
    'network',
    'inspect',
    'bridge',
    '-f',
    '{{range .IPAM.Config}}{{.Gateway}}|{{.Subnet}} {{end}}',
  ]);
  for (const entry of raw.trim().split(/\s+/)) {
    const [gateway = '', subnet = ''] = entry.split('|');
    if (/^\d+\.\d+\.\d+\.\d+$/.test(gateway)) return gateway;
    // No explicit gateway: the daemon gives the bridge the subnet's first address.
    const base = /^(\d+\.\d+\.\d+)\.(\d+)\/\d+$/.exec(subnet);
    if (base) return `${base[1]}.${Number(base[2]) + 1}`;
  }
  throw new Error(`no IPv4 gateway on the bridge network: ${raw}`);
}

/** Starts the recorder on the bridge gateway address and a free port. */
export async function startRecorder(): Promise<Recorder> {
  const host = await bridgeGateway();
  const requests: RecordedRequest[] = [];
  let answer: UpstreamAnswer | undefined;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const status = answer?.status ?? 200;
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: raw.toString('utf8'),
        status,
      });
      response.writeHead(status, {
        'content-type': 'application/json',
        ...answer?.headers,
      });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    upstreamForContainers: `http://host.docker.internal:${port}`,
    address: `http://${host}:${port}`,
    requests,
    answerWith(next) {
      answer = next;
    },
    async waitFor(predicate, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(requests)) {
        if (Date.now() > until)
          throw new Error(
            `upstream did not see the expected requests (${requests.length} recorded)`,
          );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A tunnel envelope with one error event; returns its event id and body. */
export function errorEnvelope(
  dsn: string,
  message: string,
  exceptionType: string | undefined = 'Error',
): { eventId: string; body: string } {
  const eventId = crypto.randomUUID().replaceAll('-', '');
  const header = { event_id: eventId, dsn, sent_at: new Date().toISOString() };
  const event = {
    event_id: eventId,
    level: 'error',
    platform: 'javascript',
    timestamp: Date.now() / 1000,
    exception: { values: [{ ...(exceptionType && { type: exceptionType }), value: message }] },
  };
  const payload = JSON.stringify(event);
  const item = { type: 'event', length: Buffer.byteLength(payload) };
  return { eventId, body: `${JSON.stringify(header)}\n${JSON.stringify(item)}\n${payload}\n` };
}

/**
 * A Sentry-ingest stand-in behind the relay (the only test double: the reporting service is
 * outside the system). It records every envelope it receives, split into items, and can tell
 * when the relay reported its own errors through it (it must never).
 */
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { sdkOf, tagsOf } from './sentry-payloads.js';

/** One item of a received envelope. */
export interface ReceivedItem {
  readonly type: string;
  readonly header: Record<string, unknown>;
  /** The parsed JSON payload (undefined for non-JSON payloads). */
  readonly payload: Record<string, unknown> | undefined;
}

/** A running recorder. */
export interface RecordingUpstream {
  /** Origin for RELAY_UPSTREAM. */
  readonly origin: string;
  readonly items: ReceivedItem[];
  /** Items of one type whose payload satisfies `predicate`. */
  find(type: string, predicate?: (payload: Record<string, unknown>) => boolean): ReceivedItem[];
  /** Waits until `find(type, predicate)` returns at least `count` items. */
  waitFor(
    type: string,
    predicate?: (payload: Record<string, unknown>) => boolean,
    count?: number,
  ): Promise<ReceivedItem[]>;
  close(): Promise<void>;
}

/** Splits an envelope into its items (JSON lines; `length` honoured when given). */
export function parseEnvelope(body: Buffer): ReceivedItem[] {
  const items: ReceivedItem[] = [];
  let offset = body.indexOf(0x0a) + 1; // skip the envelope header
  while (offset > 0 && offset < body.length) {
    const headerEnd = body.indexOf(0x0a, offset);
    const header = JSON.parse(
      body.subarray(offset, headerEnd === -1 ? body.length : headerEnd).toString(),
    ) as Record<string, unknown>;
    const start = headerEnd + 1;
    const length = typeof header.length === 'number' ? header.length : undefined;
    const lineEnd = body.indexOf(0x0a, start);
    const end = length !== undefined ? start + length : lineEnd === -1 ? body.length : lineEnd;
    const raw = body.subarray(start, end).toString();
    let payload: Record<string, unknown> | undefined;
    try {
      payload = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      payload = undefined;
    }
    items.push({ type: String(header.type), header, payload });
    offset = end + 1;
  }
  return items;
}

/** Starts the recorder on 127.0.0.1 and a free port. */
export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const items: ReceivedItem[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      items.push(...parseEnvelope(body));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const find: RecordingUpstream['find'] = (type, predicate = () => true) =>
    items.filter((item) => item.type === type && item.payload && predicate(item.payload));
  return {
    origin: `http://127.0.0.1:${port}`,
    items,
    find,
    async waitFor(type, predicate, count = 1) {
      const until = Date.now() + 30_000;
      for (;;) {
        const found = find(type, predicate);
        if (found.length >= count) return found;
        if (Date.now() > until)
          throw new Error(
            `upstream got ${found.length} of ${count} ${type} items; it has:\n${describeItems(items)}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * What the recorder holds, one line per kind of item with its count, so a failure message shows
 * everything however much arrived: events with their SDK and digest, client reports with what
 * they say was dropped and why.
 */
export function describeItems(items: readonly ReceivedItem[]): string {
  const counts = new Map<string, number>();
  for (const item of items) {
    const line = describeItem(item);
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  if (counts.size === 0) return '  nothing';
  return [...counts].map(([line, count]) => `  ${count} × ${line}`).join('\n');
}

function describeItem({ type, payload = {} }: ReceivedItem): string {
  const name = typeof payload.transaction === 'string' ? ` ${payload.transaction}` : '';
  if (type === 'event') {
    const digest = tagsOf(payload).digest;
    return `event${name} from ${sdkOf(payload)}${digest ? ` (digest ${digest})` : ''}`;
  }
  if (type === 'client_report') {
    const discarded = (payload.discarded_events ?? []) as {
      reason?: string;
      category?: string;
      quantity?: number;
    }[];
    const parts = discarded.map((d) => `${d.quantity} ${d.category} (${d.reason})`);
    return `client_report: dropped ${parts.join(', ') || 'nothing'}`;
  }
  return `${type}${name}`;
}

/**
 * Stands in for the relay the render service reports to (`RELAY_URL`): records the transactions
 * of every envelope posted to it, so a test can read the traces the service sent.
 */
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** A recorded transaction's trace context. */
export interface RecordedTrace {
  readonly transaction: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
}

export interface EnvelopeRecorder {
  /** Origin for RELAY_URL. */
  readonly url: string;
  readonly transactions: RecordedTrace[];
  close(): Promise<void>;
}

/** The transactions of one envelope (newline-separated JSON: header, then item header and payload pairs). */
export function transactionsOf(envelope: string): RecordedTrace[] {
  const lines = envelope.split('\n');
  const found: RecordedTrace[] = [];
  for (let index = 1; index + 1 < lines.length; index += 2) {
    if ((JSON.parse(lines[index]!) as { type?: string }).type !== 'transaction') continue;
    const payload = JSON.parse(lines[index + 1]!) as {
      transaction: string;
      contexts: { trace: { trace_id: string; span_id: string; parent_span_id?: string } };
    };
    const trace = payload.contexts.trace;
    found.push({
      transaction: payload.transaction,
      traceId: trace.trace_id,
      spanId: trace.span_id,
      parentSpanId: trace.parent_span_id,
    });
  }
  return found;
}

export async function startEnvelopeRecorder(): Promise<EnvelopeRecorder> {
  const transactions: RecordedTrace[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      transactions.push(...transactionsOf(body.toString()));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    transactions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

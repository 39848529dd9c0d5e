/**
 * An OTLP/HTTP traces endpoint stand-in (the collector is outside the system): records every
 * span the relay exports, with the `service.name` of its resource.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received span. */
export interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly op: string | undefined;
}

/** A running endpoint. */
export interface RecordingOtlp {
  /** For RELAY_OTLP_TRACES_URL. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface Attribute {
  readonly key: string;
  readonly value: { readonly stringValue?: string };
}

interface ExportRequest {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly Attribute[] };
    readonly scopeSpans: readonly {
      readonly spans: readonly {
        readonly traceId: string;
        readonly spanId: string;
        readonly parentSpanId?: string;
        readonly name: string;
        readonly kind: number;
        readonly attributes: readonly Attribute[];
      }[];
    }[];
  }[];
}

const valueOf = (attributes: readonly Attribute[], key: string) =>
  attributes.find((attribute) => attribute.key === key)?.value.stringValue;

export async function startRecordingOtlp(): Promise<RecordingOtlp> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resource of body.resourceSpans) {
        const service = valueOf(resource.resource.attributes, 'service.name') ?? '';
        for (const scope of resource.scopeSpans)
          for (const span of scope.spans)
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId,
              name: span.name,
              kind: span.kind,
              op: valueOf(span.attributes, 'sentry.op'),
            });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

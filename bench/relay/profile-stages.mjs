// The relay's stages, for the kit's profile summary: each sample goes to the first stage in this
// list whose marker (tested on `function@url`) appears anywhere in its stack, so a socket write
// lands in the stage that asked for it.
export const RELAY_STAGES = [
  ['request metrics (prom-client)', /prom-client|metrics\/dist|metrics\/src/],
  ['per-client limits, request ids', /rate-limits\/|request-ids\.ts/],
  [
    'spool: record encode, batched write, fdatasync',
    /group-commit-writer|spool\/spool|spool-record/,
  ],
  [
    'upstream: forwarder + HTTP client (request write, response parse)',
    /forwarder\.ts|http-send\.ts|undici|_http_client|_http_agent/,
  ],
  [
    'envelope parse, filters, limits (incl. event JSON.parse)',
    /accept-envelope|envelope-intake|process-envelope|envelope\/|filters\/|limits\/|pipeline\//,
  ],
  ['ingest: body read', /read-body\.ts/],
  ['ingest: response (Fastify reply, socket write)', /reply\.js|_http_outgoing/],
  [
    'ingest: HTTP parse, Fastify routing, handler',
    /fastify|find-my-way|ingest-routes|_http_server|_http_common|_http_incoming/,
  ],
  ['socket reads (both directions)', /onStreamRead/],
  ['garbage collection', /^\(garbage collector\)@/],
  ['program (native, libuv, syscalls)', /^\(program\)@/],
];

// The groups a CPU profile's self time is summed into, by a frame's script URL and function
// name; the first match wins, so narrower groups come first. One list for every service.

/** `[name, test(callFrame)]` pairs. */
export const PROFILE_GROUPS = [
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['V8/native (program)', (f) => f.functionName === '(program)'],
  ['React render (react-dom/server)', (f) => /react-dom[/\\]/.test(f.url)],
  ['React (react core)', (f) => /node_modules[/\\]react[/\\]/.test(f.url)],
  ['protobuf codecs (generated)', (f) => /proto[/\\](dist|src)[/\\]gen[/\\]/.test(f.url)],
  ['protobuf runtime', (f) => /@bufbuild|protobufjs|[/\\]long[/\\]/.test(f.url)],
  ['gRPC (@grpc/grpc-js)', (f) => /@grpc[/\\]grpc-js/.test(f.url)],
  ['PGlite (WASM Postgres)', (f) => /@electric-sql|pglite|^wasm:/.test(f.url)],
  [
    'Fastify',
    (f) => /fastify|find-my-way|avvio|light-my-request|fast-json-stringify|toad-cache/.test(f.url),
  ],
  ['undici (HTTP client)', (f) => /undici/.test(f.url)],
  ['metrics (prom-client)', (f) => /prom-client|packages[/\\]metrics[/\\]/.test(f.url)],
  ['pino', (f) => /pino|sonic-boom/.test(f.url)],
  ['Strata web runtime', (f) => /packages[/\\]web[/\\]/.test(f.url)],
  ['app (apps/*)', (f) => /[/\\]apps[/\\]/.test(f.url)],
  ['render service', (f) => /services[/\\]render[/\\]/.test(f.url)],
  ['data service', (f) => /services[/\\]data[/\\]/.test(f.url)],
  ['relay', (f) => /services[/\\]relay[/\\]/.test(f.url)],
  ['bench driver', (f) => /[/\\]bench[/\\](data|render|relay|kit)[/\\]/.test(f.url)],
  ['node http2', (f) => /^node:(internal[/\\])?http2/.test(f.url)],
  [
    'node http / net / streams',
    (f) => /^node:(internal[/\\])?(_http|http|net|stream|streams|tls|dns)/.test(f.url),
  ],
  ['node core (other)', (f) => f.url.startsWith('node:')],
  ['builtins (JSON, RegExp, String …)', (f) => f.url === ''],
  ['other JS', () => true],
];

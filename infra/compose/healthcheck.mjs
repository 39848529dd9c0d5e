// Container HEALTHCHECK probe (copied into every service image as /app/healthcheck.mjs).
//   node healthcheck.mjs http://127.0.0.1:3000/readyz   → exit 0 on a 2xx answer
//   node healthcheck.mjs grpc 127.0.0.1:50051           → exit 0 when grpc.health.v1.Health/Check
//                                                          answers SERVING for the server ("")
// No dependencies for HTTP; the gRPC form uses the image's own @grpc/grpc-js, over TLS when the
// data service serves TLS (DATA_TLS_CERT/DATA_TLS_KEY in its environment).
import { readFileSync } from 'node:fs';

const [target = '', address = ''] = process.argv.slice(2);
const TIMEOUT_MS = 3000;

async function checkHttp(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
}

async function checkGrpc(hostPort) {
  const grpc = await import('@grpc/grpc-js');
  const client = new grpc.Client(
    hostPort,
    credentials(grpc, process.env),
    channelOptions(process.env),
  );
  const identity = (bytes) => bytes;
  try {
    const reply = await new Promise((resolve, reject) =>
      client.makeUnaryRequest(
        '/grpc.health.v1.Health/Check',
        identity,
        identity,
        Buffer.alloc(0), // HealthCheckRequest { service: "" }
        { deadline: Date.now() + TIMEOUT_MS },
        (error, value) => (error ? reject(error) : resolve(value)),
      ),
    );
    // HealthCheckResponse { status = 1 (SERVING) } encodes as field 1, varint 1: 08 01.
    if (!(reply.length === 2 && reply[0] === 0x08 && reply[1] === 0x01))
      throw new Error(`health status is not SERVING (${reply.toString('hex') || 'UNKNOWN'})`);
  } finally {
    client.close();
  }
}

/**
 * The service probing itself over loopback: 127.0.0.1 is not a name its certificate carries, and
 * the certificate is its own, so the probe does not verify it. With mutual TLS the probe shows the
 * service's own certificate, which must then be signed by DATA_TLS_CA (docs/operations.md).
 */
function credentials(grpc, env) {
  if (!servesTls(env)) return grpc.credentials.createInsecure();
  const mutual = Boolean(env.DATA_TLS_CA);
  return grpc.credentials.createSsl(
    null,
    mutual ? readFileSync(env.DATA_TLS_KEY) : null,
    mutual ? readFileSync(env.DATA_TLS_CERT) : null,
    { rejectUnauthorized: false },
  );
}

/**
 * Over TLS, the name the probe sends in SNI: grpc-js would send the IP address it dials, which TLS
 * forbids there and Node 26 refuses. No name is verified (above), so any name does.
 */
function channelOptions(env) {
  return servesTls(env) ? { 'grpc.ssl_target_name_override': 'localhost' } : {};
}

function servesTls(env) {
  return Boolean(env.DATA_TLS_CERT && env.DATA_TLS_KEY);
}

try {
  await (target === 'grpc' ? checkGrpc(address) : checkHttp(target));
  process.exit(0);
} catch (error) {
  console.error(`unhealthy: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

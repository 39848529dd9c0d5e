/**
 * Clients for the standard gRPC health and reflection services, loaded from the .proto files
 * their packages ship (as grpcurl would use them).
 */
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const reflectionRoot = join(
  dirname(require.resolve('@grpc/reflection/package.json')),
  'build/proto',
);
const healthProto = join(
  dirname(require.resolve('grpc-health-check/package.json')),
  'proto/health/v1/health.proto',
);

type Loaded = Record<
  string,
  Record<string, Record<string, Record<string, grpc.ServiceClientConstructor>>>
>;

/** Asks the health service for a service's status ('' = the whole server). */
export function checkHealth(address: string, service = ''): Promise<string> {
  const loaded = grpc.loadPackageDefinition(
    loadSync(healthProto, { enums: String }),
  ) as unknown as Loaded;
  const Health = loaded['grpc']?.['health']?.['v1']?.['Health'] as grpc.ServiceClientConstructor;
  const client = new Health(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    (client['check'] as grpc.requestCallback<unknown> & ((...args: unknown[]) => void))(
      { service },
      (error: grpc.ServiceError | null, response: { status: string }) => {
        client.close();
        if (error) reject(error);
        else resolve(response.status);
      },
    );
  });
}

/** Sends one reflection request and returns the first response (grpcurl `list`/`describe`). */
export function reflect(
  address: string,
  request: Record<string, string>,
): Promise<Record<string, unknown>> {
  const definition = loadSync('grpc/reflection/v1/reflection.proto', {
    includeDirs: [reflectionRoot],
  });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as Loaded;
  const Reflection = loaded['grpc']?.['reflection']?.['v1']?.[
    'ServerReflection'
  ] as grpc.ServiceClientConstructor;
  const client = new Reflection(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    const stream = (
      client['serverReflectionInfo'] as () => grpc.ClientDuplexStream<
        unknown,
        Record<string, unknown>
      >
    )();
    stream.on('data', (response) => {
      resolve(response);
      stream.end();
      client.close();
    });
    stream.on('error', reject);
    stream.write(request);
  });
}

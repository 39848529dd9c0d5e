/**
 * Real data services (PGlite in memory) for the client's tests: several on one port across
 * loopback addresses (127.0.0.1, 127.0.0.2, …) so one name can resolve to all of them, each
 * holding a marker item whose title says which replica answered.
 */
import { loadDataConfig, startDataService, type RunningDataService } from '@strata/data';
import { pino } from 'pino';
import type { AddressResolver } from '@strata/grpc-transport';

/** The id every replica's marker item gets (the seed holds 1,000 items). */
export const MARKER_ID = 1001;

export async function startReplica(
  host: string,
  port = 0,
  env: Record<string, string> = {},
): Promise<RunningDataService> {
  const data = await startDataService(
    loadDataConfig({ DATA_HOST: host, DATA_PORT: String(port), DATA_DIR: 'memory://', ...env }),
    pino({ level: 'silent' }),
  );
  const { item } = await data.catalog.createItem({
    title: `replica ${host}`,
    priceCents: 1,
    categoryId: 'cat-1',
    description: '',
  });
  if (item?.id !== MARKER_ID) throw new Error(`marker item got id ${item?.id}`);
  return data;
}

/** A resolver whose answer for every name the test changes as it goes. */
export function switchableResolver(addresses: string[]) {
  let current = addresses;
  const resolver: AddressResolver = {
    resolve4: (_host, callback) => callback(null, current),
    resolve6: (_host, callback) => callback(null, []),
  };
  return { resolver, answer: (next: string[]) => void (current = next) };
}

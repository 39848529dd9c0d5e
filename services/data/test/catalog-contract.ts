/**
 * The CatalogService contract, run over real gRPC against every storage engine (PGlite and
 * PostgreSQL). Each engine's test file supplies a function that starts a fresh service.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { RunningDataService } from '../src/index.js';
import { createTestClient, type TestClient } from './harness/catalog-client.js';
import { registerListViewContract } from './contract/list-view.js';
import { registerReadContract } from './contract/reads.js';
import { registerWriteContract } from './contract/writes.js';
import { registerWatchContract } from './contract/watch.js';

/** What a contract section gets: the client and the service it talks to. */
export interface ContractContext {
  readonly client: TestClient;
  readonly service: RunningDataService;
}

/** Registers the whole contract for one engine. */
export function runCatalogContract(engine: string, start: () => Promise<RunningDataService>): void {
  describe(`CatalogService contract on ${engine}`, () => {
    let context: ContractContext | undefined;
    beforeAll(async () => {
      const service = await start();
      context = { service, client: createTestClient(service.address) };
    });
    afterAll(async () => {
      context?.client.close();
      await context?.service.stop();
    });
    const get = (): ContractContext => {
      if (!context) throw new Error('service did not start');
      return context;
    };
    registerReadContract(get);
    registerListViewContract(get);
    registerWriteContract(get);
    registerWatchContract(get);
  });
}

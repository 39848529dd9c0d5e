// Types for services.mjs, the start script's catalogue, for the tests that read it.

/** How the supervisor knows a service is up. */
export type Readiness = { kind: 'tcp'; host: string; port: number } | { kind: 'http'; url: string };

/** One service of the local stack, as `npm start` runs it. */
export interface StackService {
  name: string;
  entry: string;
  args?: string[];
  nodeArgs?: readonly string[];
  env: Record<string, string | undefined>;
  after?: string;
  url: string;
  ready: Readiness;
}

export declare const SERVICE_NODE_FLAGS: readonly string[];

export declare const RENDER_SERVICE_NODE_FLAGS: readonly string[];

export declare const RELAY_NODE_FLAGS: readonly string[];

export declare function serviceCatalog(env: Record<string, string | undefined>): StackService[];

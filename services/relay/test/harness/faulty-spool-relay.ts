/** A relay (built, not listening: reach it with `app.inject`) whose spool's disk fails on demand. */
import { buildApp, type RelayApp } from '../../src/app.js';
import { loadRelayConfig } from '../../src/config.js';
import { createSpool } from '../../src/spool/spool.js';
import { faultyFs, type FaultyFs } from '../../src/spool/test-support.js';

export interface FaultySpoolRelay {
  readonly relay: RelayApp;
  /** The spool's file system: set `spaceLeft` to make writes fail part-way. */
  readonly faults: FaultyFs;
}

/** Builds a relay for `dsns` in front of `upstreamUrl`, its spool in `dir` on a faulty disk. */
export async function relayOnFaultySpool(
  dsns: string,
  upstreamUrl: string,
  dir: string,
): Promise<FaultySpoolRelay> {
  const config = loadRelayConfig({
    RELAY_DSNS: dsns,
    RELAY_UPSTREAM: upstreamUrl,
    RELAY_SPOOL_DIR: dir,
  });
  const faults = faultyFs();
  const spool = createSpool({
    dir,
    maxBytes: config.RELAY_SPOOL_MAX_BYTES,
    projectShare: 1,
    segmentBytes: config.RELAY_SPOOL_SEGMENT_BYTES,
    memoryBytes: config.RELAY_SPOOL_MEMORY_BYTES,
    fsync: true,
    fs: faults.fs,
  });
  return { relay: await buildApp({ config, spool }), faults };
}

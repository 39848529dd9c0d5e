/**
 * A catalog channel whose reads are reported to `onRead` (the method's path and the encoded
 * request) before they are sent, so tests can see what the render service asked for.
 */
import type { CatalogChannel } from '../../src/index.js';

export function observeReads(
  channel: CatalogChannel,
  onRead: (path: string, request: Uint8Array) => void,
): CatalogChannel {
  return {
    ...channel,
    reads: {
      call(path, request, options) {
        onRead(path, request);
        return channel.reads.call(path, request, options);
      },
      close: () => channel.reads.close(),
    },
  };
}

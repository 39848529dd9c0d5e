/**
 * Tells every replica's front cache about invalidations, over Redis pub/sub. Messages are JSON
 * `{v, origin, tags}` or `{v, origin, dropBuild}`; a replica ignores its own. While the
 * subscription is down the bus reports itself disconnected, and every (re)connection is
 * announced, because messages sent meanwhile are lost: the front cache must start empty.
 */
import type { Redis } from 'ioredis';

/** An invalidation as carried between replicas. */
export type Invalidation = { readonly tags: readonly string[] } | { readonly dropBuild: string };

/** Publishes invalidations and hears those of other replicas. */
export interface InvalidationBus {
  publish(invalidation: Invalidation): Promise<void>;
  /** True while subscribed: messages from other replicas arrive. */
  connected(): boolean;
  close(): Promise<void>;
}

/** What the bus reports to its owner. */
export interface BusListener {
  onInvalidation(invalidation: Invalidation): void;
  /** The subscription went down or came back; either way messages may have been missed. */
  onGap(): void;
}

const MESSAGE_VERSION = 1;

/** Parses a bus message (total: anything unexpected is null). */
export function parseInvalidation(text: string, self: string): Invalidation | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const message = parsed as Record<string, unknown>;
  if (message['v'] !== MESSAGE_VERSION || message['origin'] === self) return null;
  const tags = message['tags'];
  if (Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))
    return { tags: tags as string[] };
  if (typeof message['dropBuild'] === 'string') return { dropBuild: message['dropBuild'] };
  return null;
}

/** A bus over two connections: `publisher` (shared with the store) and a dedicated `subscriber`. */
export function createRedisInvalidationBus(options: {
  readonly publisher: Redis;
  readonly subscriber: Redis;
  readonly channel: string;
  /** Identifies this replica's own messages. */
  readonly origin: string;
  readonly listener: BusListener;
}): InvalidationBus {
  const { publisher, subscriber, channel, origin, listener } = options;
  let subscribed = false;

  const subscribe = () => {
    subscriber.subscribe(channel).then(
      () => {
        subscribed = true;
        listener.onGap();
      },
      () => undefined, // the next 'ready' tries again
    );
  };
  subscriber.on('ready', subscribe);
  subscriber.on('close', () => {
    if (!subscribed) return;
    subscribed = false;
    listener.onGap();
  });
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    const invalidation = parseInvalidation(text, origin);
    if (invalidation) listener.onInvalidation(invalidation);
  });
  if (subscriber.status === 'ready') subscribe();

  return {
    async publish(invalidation) {
      await publisher.publish(
        channel,
        JSON.stringify({ v: MESSAGE_VERSION, origin, ...invalidation }),
      );
    },
    connected: () => subscribed,
    async close() {
      subscribed = false;
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}

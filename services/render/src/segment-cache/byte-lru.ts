/**
 * A map bounded by the bytes of its values, evicting the least recently used entries first.
 * The caller states each value's size; an entry larger than the whole budget is not kept.
 */

/** A bounded LRU map. */
export interface ByteLru<V> {
  get(key: string): V | undefined;
  /** Stores (or replaces) `key`; false when `bytes` alone exceeds the budget. */
  set(key: string, value: V, bytes: number): boolean;
  delete(key: string): boolean;
  clear(): void;
  /** Every key, oldest first (a snapshot). */
  keys(): string[];
  /** Bytes held now. */
  bytes(): number;
  size(): number;
}

/** Creates an LRU holding at most `maxBytes`; `onEvict` hears about entries pushed out. */
export function createByteLru<V>(
  maxBytes: number,
  onEvict: (key: string, value: V) => void = () => undefined,
): ByteLru<V> {
  // Map iteration order is insertion order: re-inserting on use keeps the oldest first.
  const entries = new Map<string, { value: V; bytes: number }>();
  let total = 0;

  const remove = (key: string): { value: V; bytes: number } | undefined => {
    const found = entries.get(key);
    if (!found) return undefined;
    entries.delete(key);
    total -= found.bytes;
    return found;
  };

  return {
    get(key) {
      const found = entries.get(key);
      if (!found) return undefined;
      entries.delete(key);
      entries.set(key, found);
      return found.value;
    },
    set(key, value, bytes) {
      remove(key);
      if (bytes > maxBytes) return false;
      entries.set(key, { value, bytes });
      total += bytes;
      for (const [oldest] of entries) {
        if (total <= maxBytes) break;
        const evicted = remove(oldest);
        if (evicted) onEvict(oldest, evicted.value);
      }
      return true;
    },
    delete: (key) => remove(key) !== undefined,
    clear() {
      entries.clear();
      total = 0;
    },
    keys: () => [...entries.keys()],
    bytes: () => total,
    size: () => entries.size,
  };
}

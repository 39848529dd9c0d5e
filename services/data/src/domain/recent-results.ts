/**
 * The results of a pure function for its most recent inputs, so a hot input skips the work.
 * Bounded: past `limit` entries the oldest goes first, and inputs longer than `maxKeyLength`
 * are computed without being remembered (a caller cannot grow it with long strings).
 */
export class RecentResults<Value> {
  readonly #values = new Map<string, Value>();
  readonly #limit: number;
  readonly #maxKeyLength: number;

  constructor(limit: number, maxKeyLength: number) {
    this.#limit = limit;
    this.#maxKeyLength = maxKeyLength;
  }

  /** The remembered value for `key`, or `compute()`'s, remembered when the key is short. */
  get(key: string, compute: () => Value): Value {
    const known = this.#values.get(key);
    if (known !== undefined) return known;
    const value = compute();
    if (key.length <= this.#maxKeyLength) {
      if (this.#values.size >= this.#limit) this.#values.delete(this.#values.keys().next().value!);
      this.#values.set(key, value);
    }
    return value;
  }

  /** How many inputs are remembered. */
  get size(): number {
    return this.#values.size;
  }
}

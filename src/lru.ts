/**
 * A least-recently-used map bounded in entries and in a caller-given weight (e.g. characters).
 * Map iteration order is insertion order, so re-inserting on use keeps the oldest first. An entry
 * used while it is still among the newest quarter of the entries (by insertions and moves) is left
 * where it is: it cannot be the next evicted, and a hit then costs one map lookup instead of three.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number; touched: number }>();
  private total = 0;
  /** Counts insertions and moves; an entry's `touched` is the count when it last went to the newest end. */
  private clock = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.clock - entry.touched > this.entries.size / 4) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.touched = ++this.clock;
    }
    return entry.value;
  }

  set(key: K, value: V, weight: number): void {
    this.delete(key);
    if (weight > this.maxWeight || this.maxEntries <= 0) return;
    this.entries.set(key, { value, weight, touched: ++this.clock });
    this.total += weight;
    while (this.entries.size > this.maxEntries || this.total > this.maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /** Change the weight of an entry already present (its value grew or shrank in place). */
  reweigh(key: K, weight: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total += weight - entry.weight;
    entry.weight = weight;
    while (this.total > this.maxWeight && this.entries.size > 0) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.total;
  }
}

/**
 * Values derived from a key once and kept, for keys that repeat (a client's query text, an answer's
 * tag inputs). Bounded by a count: when full it is emptied and fills again, which costs one
 * recomputation per key and needs no bookkeeping per hit.
 */
export class Memo<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  of(key: K, make: (key: K) => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.values.size >= this.maxEntries) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}

/**
 * Values derived from an object once and kept as long as the object lives (a WeakMap, no bound
 * needed): the typed reading of a decoded cache entry is made on its first hit, not on every one,
 * since the memory cache hands the same decoded answer to each (docs/decisions.md#hot-path).
 * `inputs` names whatever else the value is made of; other inputs derive it again.
 */
export class PerObject<K extends object, V> {
  private readonly values = new WeakMap<K, { inputs: string; value: V }>();

  of(source: K, inputs: string, make: () => V): V {
    const kept = this.values.get(source);
    if (kept !== undefined && kept.inputs === inputs) return kept.value;
    const value = make();
    this.values.set(source, { inputs, value });
    return value;
  }
}

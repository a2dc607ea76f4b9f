/** One run per key at a time, shared by callers meanwhile; a forgotten or replaced run answers only its own callers. */
export class SingleFlight<K, V> {
  private readonly running = new Map<K, Promise<V>>();

  /** The run under way for `key`, or a new run of `fn`. With `join: false`, always a new run, which later callers join. */
  run(key: K, fn: () => Promise<V>, options: { join?: boolean } = {}): Promise<V> {
    const under = options.join === false ? undefined : this.running.get(key);
    if (under) return under;
    const run: Promise<V> = fn().finally(() => {
      if (this.running.get(key) === run) this.running.delete(key);
    });
    this.running.set(key, run);
    return run;
  }

  forget(key: K): void {
    this.running.delete(key);
  }

  clear(): void {
    this.running.clear();
  }
}

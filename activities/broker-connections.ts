import { createHash } from 'node:crypto';
import type { BrokerTarget } from './transport';

/** A broker connection unused this long is closed: a destination that gets no events holds no socket. */
export const BROKER_IDLE_CLOSE_MS = 60_000;

interface Entry<C> {
  connection: Promise<C>;
  users: number;
  lastUsed: number;
}

export interface ConnectionPool<C> {
  /** Runs `work` on the destination's connection, opened on first use; `gone` drops it from the pool (its socket closed or broken). */
  use<R>(target: BrokerTarget, work: (connection: C) => Promise<R>): Promise<R>;
  /** Drops and closes the destination's connection (a publish that hung or failed leaves it in a state nobody knows). */
  discard(target: BrokerTarget): void;
  close(): Promise<void>;
}

/**
 * One connection per destination (its config and credentials: a change of either opens a new one), shared by the
 * attempts to it and closed once idle for `idleMs`. `open` is told how to drop the connection when the broker closes it.
 */
export function createConnectionPool<C>(options: {
  open(target: BrokerTarget, gone: () => void): Promise<C>;
  close(connection: C): Promise<void>;
  idleMs?: number;
}): ConnectionPool<C> {
  const idleMs = options.idleMs ?? BROKER_IDLE_CLOSE_MS;
  const entries = new Map<string, Entry<C>>();
  const drop = (key: string, entry: Entry<C>) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    entry.connection.then(options.close, () => undefined).catch(() => undefined);
  };
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.users === 0 && now - entry.lastUsed >= idleMs) drop(key, entry);
  }, Math.max(1_000, idleMs / 4));
  sweeper.unref();

  return {
    async use(target, work) {
      const key = keyOf(target);
      let entry = entries.get(key);
      if (!entry) {
        const created: Entry<C> = { connection: Promise.resolve(undefined as C), users: 0, lastUsed: Date.now() };
        created.connection = options.open(target, () => drop(key, created));
        // A failed open is forgotten at once: the next attempt opens again.
        created.connection.catch(() => entries.get(key) === created && entries.delete(key));
        entries.set(key, created);
        entry = created;
      }
      entry.users += 1;
      try {
        return await work(await entry.connection);
      } finally {
        entry.users -= 1;
        entry.lastUsed = Date.now();
      }
    },
    discard(target) {
      const key = keyOf(target);
      const entry = entries.get(key);
      if (entry) drop(key, entry);
    },
    async close() {
      clearInterval(sweeper);
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.map((e) => e.connection.then(options.close, () => undefined).catch(() => undefined)));
    },
  };
}

/** A hash, so that the map's keys hold no credential. */
function keyOf(target: BrokerTarget): string {
  return createHash('sha256').update(JSON.stringify([target.destination, target.credentials])).digest('base64url');
}

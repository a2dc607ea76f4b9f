import type { Document } from 'mongodb';
import type { AppendLog, LogEntry } from './append-log';

/** A position in a log and what changed after it. */
export interface ChangeFeed<T> {
  /** The position of the last change (0: none yet). */
  position(): Promise<number>;
  /** The changes after `position`, oldest first, at most `max`. */
  since(position: number, max?: number): Promise<Array<LogEntry<T>>>;
}

/**
 * Read what changed since a position: one scope of an append log seen as a feed. Positions are
 * entry numbers, so a reader that stops at position p and comes back reads exactly the entries
 * after p, none twice and none skipped (entries are never rewritten: append-log.ts).
 */
export function changeFeed<T, D extends Document & { _id: string }>(log: AppendLog<T, D>, scope: string): ChangeFeed<T> {
  return {
    position: async () => (await log.head(scope))?.n ?? 0,
    since: (position, max) => log.readSince(scope, position, max),
  };
}

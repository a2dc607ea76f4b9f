import type { Document } from 'mongodb';
import type { AppendLog, LogEntry } from './append-log';

export interface ChangeFeed<T> {
  /** The position of the last change (0: none yet). */
  position(): Promise<number>;
  /** The changes after `position`, oldest first, at most `max`. */
  since(position: number, max?: number): Promise<Array<LogEntry<T>>>;
}

/** One scope of an append log as a feed: positions are entry numbers, so none is read twice or skipped. */
export function changeFeed<T, D extends Document & { _id: string }>(log: AppendLog<T, D>, scope: string): ChangeFeed<T> {
  return {
    position: async () => (await log.head(scope))?.n ?? 0,
    since: (position, max) => log.readSince(scope, position, max),
  };
}

/** FIFO queue pruning: places and leaves up to a queue's floor are deleted; places are taken, and kept, above it. */

/** Places and leaves deleted per command of a prune. */
export const FIFO_PRUNE_BATCH = 256;
/** Commands of deletes one prune makes at most (the rest waits for the next). */
export const FIFO_PRUNE_MAX_BATCHES = 16;
/** The least a retention purge raises a floor by: each raise is a document kept for good. */
export const FIFO_PRUNE_MIN_ADVANCE = 64;

/**
 * A floor reaches only places of events past retention (at least 8 days) and places are taken in order, so one taken
 * less than this ago, or above one, is above every floor; far below retention, so clock skew and slow ingest do not matter.
 */
export const FIFO_UNPRUNABLE_MS = 86_400_000;

/** Whether a place taken at `takenAt` (or later), or above one, is above every floor at `at`. */
export function isAboveEveryFloor(takenAt: Date, at: Date): boolean {
  return at.getTime() - takenAt.getTime() < FIFO_UNPRUNABLE_MS;
}

/** The floor a prune raises to (null: left as it is): up to `through`, never past the places left. */
export function raisedFloor(floor: number, leftThrough: number, through: number, minAdvance: number): number | null {
  const target = Math.min(leftThrough, through);
  return target - floor >= Math.max(1, minAdvance) ? target : null;
}

/** The next places whose documents a prune deletes (null: none), the lowest first, at most `batch`. */
export function nextDeletion(deletedThrough: number, floor: number, batch: number): { from: number; through: number } | null {
  if (deletedThrough >= floor) return null;
  return { from: deletedThrough + 1, through: Math.min(floor, deletedThrough + batch) };
}

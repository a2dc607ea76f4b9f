import { ConflictError, NotFoundError } from '../src/domain/errors';

export interface RoundTarget {
  accountId: string;
  eventId: number;
  endpointId: string;
}

export interface RecoveryActivityDeps {
  /** The manual-retry use case (claims the next round, then starts its delivery workflow). */
  retry: (accountId: string, eventId: number, endpointId: string) => Promise<unknown>;
}

/** The I/O of a bulk recovery: one new round per delivery, by the same rules as a manual retry. */
export function createRecoveryActivities(deps: RecoveryActivityDeps) {
  return {
    /**
     * `skipped` where a manual retry would answer 409 or 404 (a round in flight, the round cap,
     * the endpoint disabled or deleted meanwhile): the recovery goes on with the others. Run again
     * by Temporal after a fault, a round already started is in flight: skipped, not doubled.
     */
    async startDeliveryRound(target: RoundTarget): Promise<'started' | 'skipped'> {
      try {
        await deps.retry(target.accountId, target.eventId, target.endpointId);
        return 'started';
      } catch (err) {
        if (err instanceof ConflictError || err instanceof NotFoundError) return 'skipped';
        throw err;
      }
    },
  };
}

export type RecoveryActivities = ReturnType<typeof createRecoveryActivities>;

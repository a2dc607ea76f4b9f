/** For our own infrastructure faults (a store or worker hiccup) and throttled attempts, never for a receiver's answer. */
export const INFRASTRUCTURE_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' } as const;

/** A quick bookkeeping step (a page of the store, a round started), retried as a fault. */
export const BOOKKEEPING_ACTIVITY = { startToCloseTimeout: '1 minute', retry: INFRASTRUCTURE_RETRY } as const;

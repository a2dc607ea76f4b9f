/**
 * Activity retries of every workflow: they cover our own infrastructure faults (a store or worker
 * hiccup) and a throttled attempt, never what a receiver answered.
 */
export const INFRASTRUCTURE_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' } as const;

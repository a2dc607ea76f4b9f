/** For our own infrastructure faults (a store or worker hiccup) and throttled attempts, never for a receiver's answer. */
export const INFRASTRUCTURE_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' } as const;

/** What tells the time: injected, so tests can hold rules at their boundaries (limits, windows, expiry). */
export type Clock = () => Date;

/** The real time, the default wherever no clock is injected. */
export const systemClock: Clock = () => new Date();

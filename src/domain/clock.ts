/** What tells the time: injected, so tests can hold rules at their boundaries (limits, windows, expiry). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

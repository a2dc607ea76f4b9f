/** A clock the test moves by hand, for a platform's `clock` option (limits, idempotency windows, cache lifetimes). */
export function fakeClock(start: string | number) {
  let now = typeof start === 'number' ? start : Date.parse(start);
  return {
    now: () => new Date(now),
    at: () => now,
    set: (iso: string) => (now = Date.parse(iso)),
    advance: (ms: number) => (now += ms),
  };
}

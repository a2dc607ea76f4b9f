/** The wait after the first failure, doubling after each next one up to `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
  /** Absent: a timer that never holds the process up. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Calls `attempt` until it resolves, waiting between tries; `failed`: the call has already failed that many
 * times, so the first try waits too. `onFailure`, told the wait before the next try, gives up by returning false.
 */
export async function retryWithBackoff(
  attempt: (failures: number) => Promise<unknown>,
  backoff: Backoff,
  onFailure: (err: unknown, nextWaitMs: number) => boolean | void,
  failed = 0,
): Promise<void> {
  const waitAfter = (failures: number) => Math.min(backoff.maxMs, backoff.firstMs * 2 ** (failures - 1));
  const sleep = backoff.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  for (let failures = failed; ; failures++) {
    if (failures > 0) await sleep(waitAfter(failures));
    try {
      await attempt(failures);
      return;
    } catch (err) {
      if (onFailure(err, waitAfter(failures + 1)) === false) return;
    }
  }
}

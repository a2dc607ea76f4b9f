/** The wait after the first failure, doubling after each next one up to `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/**
 * Calls `attempt` until it resolves, waiting between tries; `failed`: the call has already failed that many
 * times, so the first try waits too. `onFailure` returning false gives up. The waits never hold the process up.
 */
export async function retryWithBackoff(
  attempt: (failures: number) => Promise<unknown>,
  backoff: Backoff,
  onFailure: (err: unknown) => boolean | void,
  failed = 0,
): Promise<void> {
  for (let failures = failed; ; failures++) {
    if (failures > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(backoff.maxMs, backoff.firstMs * 2 ** (failures - 1))).unref());
    try {
      await attempt(failures);
      return;
    } catch (err) {
      if (onFailure(err) === false) return;
    }
  }
}

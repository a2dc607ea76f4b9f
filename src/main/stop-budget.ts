/** The documented stop bound: every process `npm start` started ends within it, whatever a step does. */
export const STOP_PROMISE_MS = 10_000;

/** Work in flight gets this long; crash recovery and Temporal's retries make the rest safe. */
export const IN_FLIGHT_GRACE_MS = 5_000;

/** An embedded server that has not exited this long after SIGTERM is killed (its SQLite WAL survives that). */
export const SERVER_STOP_MS = 2_000;

/** When the stop gives up on what is left, kills the embedded servers and exits: a margin before the promise. */
export const STOP_BACKSTOP_MS = STOP_PROMISE_MS - 1_000;

/** Whether `work` settles before `deadline` (ms since the epoch). It goes on either way; its failure is its owner's to report. */
export function settlesBy(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = work.then(
    () => true,
    () => true,
  );
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))));
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

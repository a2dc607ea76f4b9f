/**
 * The platform's retry advice (429 and 503): wait Retry-After seconds (1 when it is not given),
 * doubled per retry, plus up to 500 ms of jitter, at most 5 retries.
 */
export const DEFAULT_MAX_RETRIES = 5;
export const MAX_JITTER_MS = 500;

/** Milliseconds to wait before retry `retry` (0 for the first retry); `random` is uniform in [0, 1). */
export function retryDelayMs(retry: number, retryAfterSeconds: number | undefined, random: number): number {
  return (retryAfterSeconds ?? 1) * 1000 * 2 ** retry + random * MAX_JITTER_MS;
}

/** Seconds from a `Retry-After` header: its delay-seconds form (the platform's), else the body's `retry_after`. */
export function retryAfterSeconds(header: string | null, bodyRetryAfter: unknown): number | undefined {
  if (header !== null && /^\d+$/.test(header.trim())) return Number(header.trim());
  return typeof bodyRetryAfter === 'number' && bodyRetryAfter >= 0 ? bodyRetryAfter : undefined;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

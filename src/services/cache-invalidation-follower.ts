import type { Invalidation } from '../persistence/cache-invalidations';

/** The log as the follower reads it (persistence/cache-invalidations.ts). */
export interface InvalidationLog {
  end(): Promise<number>;
  after(n: number, max?: number): Promise<Array<Invalidation & { n: number }>>;
}

/** What a cache that trusts its entries longer while the log is followed asks (key-authenticator.ts, account-endpoints-cache.ts). */
export interface FollowedLog {
  /** When the last complete poll started (ms): every invalidation logged before it has been applied. null while none has. */
  coveredSince(): number | null;
}

/**
 * The log counts as followed while its last complete poll started less than this long ago. A
 * writer logs right after its write, so a change logged before that poll was applied; one
 * logged later is at most this old (plus the logging write) while caches still trust entries.
 */
export const FOLLOW_MAX_LAG_MS = 600;

/**
 * While the log is followed, a cache keeps an entry this long: a change made through any process
 * reaches it within a poll, and reading the entry again after this is only a safety net for a
 * change the log missed (a crash between a write and its entry).
 */
export const FOLLOWED_TTL_MS = 30_000;

/** How long a cache may keep an entry: FOLLOWED_TTL_MS while `log` is followed, else its own short TTL. */
export function cacheTtl(log: FollowedLog | undefined, now: number, shortTtlMs: number): number {
  return isFollowed(log, now) ? Math.max(FOLLOWED_TTL_MS, shortTtlMs) : shortTtlMs;
}

/** True while `log` is followed closely enough for caches to keep entries past their short TTL. */
export function isFollowed(log: FollowedLog | undefined, now: number): boolean {
  const covered = log?.coveredSince();
  return covered != null && now - covered < FOLLOW_MAX_LAG_MS;
}

export interface CacheInvalidationFollowerOptions {
  /**
   * Called when the follower finds where the log ends, before it first counts as followed: the
   * caches drop everything, since what they took in before then (on their short TTLs, e.g. while
   * the store did not answer the first poll) may predate entries the follower will never read.
   */
  reset?: () => void;
  /** How often the log is read (one `_id` lookup when nothing changed). */
  pollIntervalMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

/** Entries read per lookup round; a longer backlog is read in further rounds before the poll counts as complete. */
const BATCH = 100;

/**
 * Follows the cache-invalidations log for this process: every poll reads the entries after the
 * last one applied and hands each to `apply` (the caches drop what it names). `coveredSince()` is
 * when the last complete poll started: every invalidation logged before that instant has been
 * applied, which is what lets the caches keep entries longer than their short TTLs (the 1 s
 * revocation bound, key-authenticator.ts). Before the first poll, or while polls fail, it makes
 * no such promise, and the caches fall back to re-reading on their short TTLs.
 */
export class CacheInvalidationFollower implements FollowedLog {
  private position: number | null = null;
  private covered: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly pollIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly log: InvalidationLog,
    private readonly apply: (invalidation: Invalidation) => void,
    private readonly options: CacheInvalidationFollowerOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.now = options.now ?? Date.now;
  }

  /** Finds the log's end (a process starts with nothing cached, so older entries concern it not), then polls. */
  async start(): Promise<void> {
    if (this.timer) return;
    await this.pollOnce().catch((err) => this.options.onError?.(err));
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.pollOnce().catch((err) => this.options.onError?.(err)).finally(() => (this.running = null));
    }, this.pollIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** When the last complete poll started (ms), or null while none has completed. */
  coveredSince(): number | null {
    return this.covered;
  }

  /** One poll: applies every entry logged before it started. */
  async pollOnce(): Promise<void> {
    const started = this.now();
    if (this.position === null) {
      this.position = await this.log.end();
      this.options.reset?.();
    } else {
      for (;;) {
        const changes = await this.log.after(this.position, BATCH);
        for (const change of changes) {
          this.apply(change);
          this.position = change.n;
        }
        if (changes.length < BATCH) break;
      }
    }
    this.covered = started;
  }
}

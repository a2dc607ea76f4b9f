import { periodic, type Periodic } from '../infra/periodic';
import type { CacheInvalidations, Invalidation } from './cache-invalidations';

/** How long a cache may serve an entry: `ttlMs` without a read, `maxStaleMs` while one refresh runs (never after). */
export type CacheLifetime = (now: number, own: { ttlMs: number; maxStaleMs: number }) => { ttlMs: number; maxStaleMs: number };

/** Followed while the last complete poll began less than this ago; writers log right after writing, so no miss is older. */
export const FOLLOW_MAX_LAG_MS = 600;

/** While followed, a cache keeps an entry this long; re-reading it is a safety net for a missed entry. */
export const FOLLOWED_TTL_MS = 30_000;

/** The longest a process may answer from a cached copy of a record (a stale one is refreshed before this). */
export const MAX_CACHED_COPY_AGE_MS = 2 * FOLLOWED_TTL_MS;

/** The cache lifetimes `log`'s coverage allows: FOLLOWED_TTL_MS and MAX_CACHED_COPY_AGE_MS while it is followed, else the cache's own. */
export function lifetimeOf(log: Pick<CacheInvalidationFollower, 'coveredSince'>): CacheLifetime {
  return (now, own) => {
    const covered = log.coveredSince();
    if (covered === null || now - covered >= FOLLOW_MAX_LAG_MS) return own;
    return { ttlMs: Math.max(FOLLOWED_TTL_MS, own.ttlMs), maxStaleMs: Math.max(MAX_CACHED_COPY_AGE_MS, own.maxStaleMs) };
  };
}

/** Entries read per lookup round (a longer backlog is read in further rounds of the same poll). */
const BATCH = 100;
/** How often the log is read (one `_id` lookup when nothing changed). */
const POLL_INTERVAL_MS = 200;
/** An entry reserved but still not written this long after it was first missed is taken as lost (its writer stopped): caches drop all, and it is passed. */
export const LOST_ENTRY_MS = 5_000;

/** Hands each cache-invalidations entry to `apply`; before the first poll, or while polls fail, `coveredSince()` promises nothing. */
export class CacheInvalidationFollower {
  /** Every entry up to it has been applied. */
  private position: number | null = null;
  /** The first entry missed (reserved, not written), and when. */
  private missing: { n: number; since: number } | null = null;
  private covered: number | null = null;
  private loop: Periodic | null = null;

  constructor(
    private readonly log: Pick<CacheInvalidations, 'position' | 'entries'>,
    private readonly apply: (invalidation: Invalidation) => void,
    private readonly options: {
      /** On finding the log's end, before first counting as followed, and past a lost entry: caches drop all, as they may hold what entries never read concern. */
      reset: () => void;
      now: () => number;
      onError: (err: unknown) => void;
    },
  ) {}

  /** Finds the log's end (a process starts with nothing cached, so older entries concern it not), then polls. */
  async start(): Promise<void> {
    if (this.loop) return;
    await this.pollOnce().catch(this.options.onError);
    this.loop = periodic(() => this.pollOnce(), POLL_INTERVAL_MS, this.options.onError);
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }

  /** When the last complete poll started (ms): every invalidation logged before it has been applied. null while none has. */
  coveredSince(): number | null {
    return this.covered;
  }

  /**
   * One poll: applies every entry written before it started. An entry missing below the end is being written (its append has
   * not finished, so the poll owes it nothing): the entries after it are applied too, and the next polls start from it again.
   */
  async pollOnce(): Promise<void> {
    const started = this.options.now();
    const end = await this.log.position();
    if (this.position === null || (this.missing && started - this.missing.since >= LOST_ENTRY_MS)) {
      this.options.reset();
      this.position = end;
      this.missing = null;
    } else {
      let firstMissing: number | null = null;
      for (let from = this.position + 1; from <= end; from += BATCH) {
        const entries = await this.log.entries(from, Math.min(end, from + BATCH - 1));
        for (const [i, entry] of entries.entries()) {
          if (entry) this.apply(entry);
          else firstMissing ??= from + i;
        }
      }
      this.position = firstMissing === null ? end : firstMissing - 1;
      if (firstMissing !== this.missing?.n) this.missing = firstMissing === null ? null : { n: firstMissing, since: started };
    }
    this.covered = started;
  }
}

import type { CredentialChange } from '../persistence/credential-changes';

/** The log as the follower reads it (persistence/credential-changes.ts). */
export interface CredentialChangeLog {
  end(): Promise<number>;
  after(n: number, max?: number): Promise<Array<CredentialChange & { n: number }>>;
}

export interface CredentialChangeFollowerOptions {
  /** How often the log is read (one `_id` lookup when nothing changed). */
  pollIntervalMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

/** Entries read per lookup round; a longer backlog is read in further rounds before the poll counts as complete. */
const BATCH = 100;

/**
 * Follows the credential-changes log for this process: every poll reads the entries after the
 * last one applied and hands each to `apply` (the key cache drops what it names).
 * `coveredSince()` is when the last complete poll started: every change logged before that
 * instant has been applied, which is what lets the key cache keep keys longer than the 1 s
 * revocation bound (key-authenticator.ts). Before the first poll, or while polls fail, it makes
 * no such promise, and the cache falls back to re-reading each key.
 */
export class CredentialChangeFollower {
  private position: number | null = null;
  private covered: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly pollIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly log: CredentialChangeLog,
    private readonly apply: (change: CredentialChange) => void,
    private readonly options: CredentialChangeFollowerOptions = {},
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

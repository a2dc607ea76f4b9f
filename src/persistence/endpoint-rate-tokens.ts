import type { Db } from 'mongodb';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { claimOnce } from './store-primitives';

interface RateTokenDoc extends ExpiringDoc {
  endpoint_id: string;
  window: number;
}

/** Claims one attempt tries before it is refused (it is made again later): bounds its round trips. */
const MAX_CLAIMS_PER_TAKE = 8;
/** Past this many endpoints the per-process hints are dropped (a hint only saves round trips). */
const MAX_HINTS = 10_000;

/**
 * An endpoint's starts per one-second window, shared by every worker process: token k of a window is
 * the document `<endpoint>@<window>#<k>`, k below the endpoint's rate, so taking one is a claim (the
 * unique insert is atomic on both stores, no read-modify-write) and no window ever has more. Each
 * process remembers the first token it has not seen taken: a start costs one insert, and a refusal
 * in a window it already found full costs nothing.
 */
export class EndpointRateTokens extends ExpiringCollection<RateTokenDoc> {
  private readonly next = new Map<string, { window: number; k: number }>();

  constructor(db: Db) {
    super(db, 'endpoint_rate_tokens');
  }

  /** One of the `perSecond` tokens of `window` for the endpoint: false when all of them are taken. */
  async take(endpointId: string, perSecond: number, window: number, expiresAt: Date): Promise<boolean> {
    let hint = this.next.get(endpointId);
    if (!hint || hint.window < window) {
      if (this.next.size >= MAX_HINTS) this.next.clear();
      hint = { window, k: 0 };
      this.next.set(endpointId, hint);
    } else if (hint.window > window) {
      // A clock read just before another caller's: a window this process has moved past, not hinted.
      hint = { window, k: 0 };
    }
    for (let claims = 0; claims < MAX_CLAIMS_PER_TAKE && hint.k < perSecond; claims++) {
      // Taken from the hint before the round trip: concurrent callers here try different tokens.
      const k = hint.k++;
      if (await claimOnce(this.col, { _id: `${endpointId}@${window}#${k}`, endpoint_id: endpointId, window, expires_at: expiresAt })) return true;
    }
    return false;
  }
}

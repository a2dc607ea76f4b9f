import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { claimOnce, memberId, RememberedHeads } from './store-primitives';

interface RateTokenDoc extends ExpiringDoc {
  endpoint_id: string;
  window: number;
}

/** Claims one attempt tries before it is refused (it is made again later): bounds its round trips. */
const MAX_CLAIMS_PER_TAKE = 8;
/** Past this many endpoint windows the oldest hints are dropped (a hint only saves round trips). */
const MAX_HINTS = 10_000;

/** An endpoint's starts per one-second window, across workers: token k (below the rate) is the claim of `<endpoint>@<window>#<k>`. */
export class EndpointRateTokens extends ExpiringCollection<RateTokenDoc>('endpoint_rate_tokens') {
  /** The last token this process tried: a start costs one insert, a refusal in a window found full nothing. */
  private readonly tried = new RememberedHeads<{ n: number }>(MAX_HINTS);

  /** One of the `perSecond` tokens of `window` for the endpoint: false when all of them are taken. */
  async take(endpointId: string, perSecond: number, window: number, expiresAt: Date): Promise<boolean> {
    const scope = `${endpointId}@${window}`;
    const untried = () => (this.tried.get(scope)?.n ?? -1) + 1;
    for (let claims = 0; claims < MAX_CLAIMS_PER_TAKE && untried() < perSecond; claims++) {
      // Taken from the hint before the round trip: concurrent callers here try different tokens.
      const k = this.tried.advance(scope, { n: -1 });
      if (await claimOnce(this.col, { _id: memberId(scope, k), endpoint_id: endpointId, window, expires_at: expiresAt })) return true;
    }
    return false;
  }
}

import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';

interface RateWindowDoc extends ExpiringDoc {
  endpoint_id: string;
  window: number;
  /** Tokens asked for in the window, refused ones included: the first `perSecond` were handed out. */
  taken: number;
}

/** An endpoint's starts per one-second window, across workers: a counter per `<endpoint>@<window>`, one upsert a take. */
export class EndpointRateTokens extends ExpiringCollection<RateWindowDoc>('endpoint_rate_tokens') {
  /** One of the `perSecond` tokens of `window` for the endpoint: false when all of them are taken. */
  async take(endpointId: string, perSecond: number, window: number, expiresAt: Date): Promise<boolean> {
    const counted = await this.col.findOneAndUpdate(
      { _id: `${endpointId}@${window}` },
      { $inc: { taken: 1 }, $setOnInsert: { endpoint_id: endpointId, window, expires_at: expiresAt } },
      { upsert: true, returnDocument: 'after' },
    );
    return (counted?.taken ?? Infinity) <= perSecond;
  }
}

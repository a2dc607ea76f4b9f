import type { EndpointDoc, Endpoints } from '../persistence/endpoints';

/**
 * How long an ingest may use a cached list of an account's enabled endpoints. Changes made
 * through this process invalidate it at once; changes made through another API process
 * reach ingests here within this time.
 */
export const ENDPOINTS_CACHE_TTL_MS = 1_000;

/**
 * Every ingest needs the account's enabled endpoints. Listing by account is a scan on the
 * embedded store (only `{_id}` reads are indexed there), so it is done at most once a
 * second per account and process rather than once per event.
 */
export class AccountEndpointsCache {
  private readonly entries = new Map<string, { at: number; endpoints: Promise<EndpointDoc[]> }>();

  constructor(private readonly endpoints: Endpoints, private readonly now: () => number = Date.now) {}

  enabled(accountId: string): Promise<EndpointDoc[]> {
    const hit = this.entries.get(accountId);
    if (hit && this.now() - hit.at < ENDPOINTS_CACHE_TTL_MS) return hit.endpoints;
    if (this.entries.size > 10_000) this.entries.clear();
    const endpoints = this.endpoints.listEnabled(accountId);
    this.entries.set(accountId, { at: this.now(), endpoints });
    endpoints.catch(() => this.entries.delete(accountId));
    return endpoints;
  }

  invalidate(accountId: string): void {
    this.entries.delete(accountId);
  }
}

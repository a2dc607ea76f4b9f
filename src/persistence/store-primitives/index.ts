// What several collections share: a unique insert that tells whether it wrote, and expiry where the store has no TTL index.
export { claimOnce } from './claim';
export { ExpirySweepers, sweepExpired } from './expire-at';

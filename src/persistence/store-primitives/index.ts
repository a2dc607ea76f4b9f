// The only operations through which src/persistence builds what concurrent processes must agree on;
// each is correct on the embedded store and on MongoDB (docs/embedded-store.md).
export { claimEach, claimOnce, ClaimBatcher, memberId, type DatedClaim } from './claim';
export { findHeadGalloping, findHeadPastGaps } from './find-head';
export { AppendLog, type LogEntry, type LogFormat } from './append-log';
export { ExpirySweepers, sweepExpired } from './expire-at';
export { insertWithinCap } from './insert-within-cap';
export { RememberedHeads } from './remembered-heads';
export { raiseHint } from './raise-hint';

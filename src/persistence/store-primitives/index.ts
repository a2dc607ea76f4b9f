/**
 * The store primitives: the only operations through which src/persistence builds anything that
 * concurrent processes must agree on. Each has one implementation, correct on the embedded store
 * (FerretDB 1.24: no atomic read-modify-write, no TTL, `_id` lookups the only lookup always
 * indexed) and on MongoDB, and a suite in test/integration/store-primitives/ with writers in two
 * processes. docs/embedded-store.md says which path runs where.
 */
export { claimEach, claimOnce, ClaimBatcher, memberId } from './claim';
export { findHeadGalloping, findHeadLinear } from './find-head';
export { AppendLog, type LogEntry, type LogFormat } from './append-log';
export { VersionedCells, type Versioned } from './compare-and-set';
export { ExpirySweepers, sweepExpired } from './expire-at';
export { changeFeed, type ChangeFeed } from './read-since';
export { insertWithinCap } from './insert-within-cap';
export { RememberedHeads } from './remembered-heads';
export { raiseHint } from './raise-hint';

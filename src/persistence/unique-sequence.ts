/** Older names of the claim primitives (store-primitives/), kept for the modules not yet moved onto the port. */
export { claimOnce as insertUnique, memberId } from './store-primitives/claim';
export { findHeadGalloping as probeGalloping, findHeadLinear as probeLinear, type Member } from './store-primitives/find-head';

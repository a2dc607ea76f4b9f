/** The expiry primitive lives in store-primitives/expire-at.ts; this name is kept for the modules not yet moved onto the port. */
export { ExpirySweepers } from './store-primitives/expire-at';

/**
 * Revoked keys an account keeps: they authenticate nothing, so only the latest are kept, and its key
 * list and the live-key cap's count stay bounded however many it has revoked.
 */
export const MAX_REVOKED_KEYS_KEPT = 20;

interface KeyState {
  revoked_at: Date | null;
}

const newestRevocationFirst = (a: KeyState, b: KeyState) => (b.revoked_at as Date).getTime() - (a.revoked_at as Date).getTime();

/** The revoked keys past the MAX_REVOKED_KEYS_KEPT most recently revoked, newest first. */
function revokedBeyondKept<K extends KeyState>(keys: readonly K[]): K[] {
  return keys
    .filter((k) => k.revoked_at !== null)
    .sort(newestRevocationFirst)
    .slice(MAX_REVOKED_KEYS_KEPT);
}

/** The keys an account lists, in the order given: every live key and the MAX_REVOKED_KEYS_KEPT most recently revoked. */
export function keysKept<K extends KeyState>(keys: readonly K[]): K[] {
  const beyond = new Set(revokedBeyondKept(keys));
  return keys.filter((k) => !beyond.has(k));
}

/**
 * The revoked keys to delete: those past the kept ones, except keys revoked less than `recentMs`
 * before `now`, whose revocation a repeat may still have to announce to the processes caching them.
 */
export function revokedKeysToDelete<K extends KeyState>(keys: readonly K[], now: Date, recentMs: number): K[] {
  return revokedBeyondKept(keys).filter((k) => now.getTime() - (k.revoked_at as Date).getTime() >= recentMs);
}

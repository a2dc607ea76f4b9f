/** Only the latest revoked keys are kept: they authenticate nothing, and the key list and cap stay bounded. */
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

/** Revoked keys past the kept ones, but not within `recentMs`: their revocation may yet be re-announced. */
export function revokedKeysToDelete<K extends KeyState>(keys: readonly K[], now: Date, recentMs: number): K[] {
  return revokedBeyondKept(keys).filter((k) => now.getTime() - (k.revoked_at as Date).getTime() >= recentMs);
}

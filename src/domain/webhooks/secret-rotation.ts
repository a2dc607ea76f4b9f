/**
 * Signing-secret rotation with overlap. Rotating makes a new current secret; the one it replaces
 * keeps signing `webhook-signature` (never `X-Webhook-Signature`, which uses the newest only)
 * until its grace period ends, so receivers can deploy the new secret without failing meanwhile.
 * Every retired secret stays sealed at rest exactly like the current one.
 */
export const DEFAULT_GRACE_PERIOD_SECONDS = 86_400;
export const MAX_GRACE_PERIOD_SECONDS = 7 * 86_400;
/** The current secret and up to four in their grace period: bounds the header and each attempt's work. */
export const MAX_SECRETS_ALIVE = 5;

export interface RetiredSecret {
  /** Sealed like the current secret (secret-box.ts). */
  sealed: string;
  /** After this instant the secret signs nothing. */
  expires_at: Date;
}

export interface SecretSet {
  secret_sealed: string;
  previous_secrets?: RetiredSecret[];
}

/** Retired secrets still signing at `now`, newest first; expired ones are simply absent. */
export function secretsInGrace(set: SecretSet, now: Date): RetiredSecret[] {
  return (set.previous_secrets ?? []).filter((s) => s.expires_at.getTime() > now.getTime());
}

/**
 * The set after a rotation to `newSealed`: the replaced secret signs for `graceSeconds` more, and
 * earlier retired secrets keep their own ends. A grace of 0 ends every one of them now: it is the
 * rotation made after a leak, and whoever makes it cannot know which of the old secrets leaked.
 * When more than MAX_SECRETS_ALIVE would be alive, those that would expire first are dropped at once.
 */
export function rotateSecretSet(set: SecretSet, newSealed: string, graceSeconds: number, now: Date): Required<SecretSet> {
  if (graceSeconds <= 0) return { secret_sealed: newSealed, previous_secrets: [] };
  const retired = secretsInGrace(set, now);
  retired.unshift({ sealed: set.secret_sealed, expires_at: new Date(now.getTime() + graceSeconds * 1000) });
  const kept = retired
    .slice()
    .sort((a, b) => b.expires_at.getTime() - a.expires_at.getTime())
    .slice(0, MAX_SECRETS_ALIVE - 1);
  return { secret_sealed: newSealed, previous_secrets: retired.filter((s) => kept.includes(s)) };
}

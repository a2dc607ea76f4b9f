/** Replaced secrets sign `webhook-signature` only, until their grace ends: receivers have time to switch. */
export const DEFAULT_GRACE_PERIOD_SECONDS = 86_400;
export const MAX_GRACE_PERIOD_SECONDS = 7 * 86_400;
/** The current secret and up to four in their grace period: bounds the header and each attempt's work. */
export const MAX_SECRETS_ALIVE = 5;

export interface RetiredSecret {
  sealed: string;
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
 * The replaced secret signs `graceSeconds` more; past MAX_SECRETS_ALIVE those expiring first are dropped. A
 * grace of 0 ends them all: it is the rotation after a leak, and which old secret leaked is unknown.
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

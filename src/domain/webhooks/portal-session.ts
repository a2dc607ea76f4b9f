import { hash, randomBytes } from 'node:crypto';

/**
 * Portal sessions: a short-lived bearer token for one tenant of one account (tenant.ts), never an API key. Its own prefix,
 * so that it is told from a key before any lookup, and 256 random bits, so that an unsalted SHA-256 is enough at rest.
 */
export const PORTAL_TOKEN_PREFIX = 'whpt_';
const PORTAL_TOKEN_PATTERN = /^whpt_[A-Za-z0-9_-]{43}$/;

export const DEFAULT_PORTAL_SESSION_SECONDS = 3_600;
export const MIN_PORTAL_SESSION_SECONDS = 60;
export const MAX_PORTAL_SESSION_SECONDS = 86_400;

export function generatePortalToken(): string {
  return `${PORTAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export const isPortalToken = (value: string | undefined): value is string => value !== undefined && value.startsWith(PORTAL_TOKEN_PREFIX);

/** The stored form: the token's SHA-256, or null for a string that cannot be a token (then nothing is looked up). */
export function portalTokenHash(token: string): string | null {
  return PORTAL_TOKEN_PATTERN.test(token) ? hash('sha256', token, 'hex') : null;
}

/** What a session may do on the public API paths: read, or also change, its tenant's records. */
export interface PortalScope {
  tenantId: string;
  readOnly: boolean;
}

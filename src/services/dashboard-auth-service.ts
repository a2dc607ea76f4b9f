import { systemClock } from '../domain/clock';
import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { DomainError, isDomainError, ValidationError } from '../domain/errors';
import { clientNetwork } from '../domain/limits/policies';
import type { Accounts } from '../persistence/accounts';
import type { DashboardSessions } from '../persistence/dashboard-sessions';
import type { DashboardSignInAttempts } from '../persistence/dashboard-sign-in-attempts';
import type { AccountService } from './account-service';

export const MIN_PASSWORD_LENGTH = 12;
/** Bounds the work one request can ask of argon2. */
export const MAX_PASSWORD_LENGTH = 1024;
/** Absolute lifetime: a stolen cookie stops working within half a day. */
export const SESSION_LIFETIME_MS = 12 * 3600 * 1000;

// Throttles count per client network (IPv6: a /64), so rotating addresses inside it gains nothing.
const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Failed sign-ins per (email, IP), account or not; per email alone, anyone could lock a user out. */
const SIGN_IN_PER_EMAIL_AND_IP = { limit: 5, windowMs: FIFTEEN_MINUTES };
/** Failed sign-ins per client IP (one address trying many emails). */
const SIGN_IN_PER_IP = { limit: 20, windowMs: FIFTEEN_MINUTES };
/** Sign-up attempts per client IP (each one costs an argon2 hash and creates an account). */
const SIGN_UP_PER_IP = { limit: 20, windowMs: FIFTEEN_MINUTES };

/** Any sign-up that cannot go through, without saying whether the email is taken. */
const SIGN_UP_REFUSED = 'Could not create an account with this email and password. If you already have an account, sign in instead.';

/** Same message for an unknown email, a wrong password and an account without a password. */
const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';

/** What the browser gets: the raw session id (only in its cookie) and the form token. */
export type NewSession = Awaited<ReturnType<DashboardAuthService['startSession']>>;
export type ActiveSession = NonNullable<Awaited<ReturnType<DashboardAuthService['resolveSession']>>>;

/** 256 random bits in base64url: a session id, a form token, an invite link's token. */
export const newSecretToken = () => randomBytes(32).toString('base64url');
export const isSecretToken = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);
/** What is stored of a session id or an invite token (SHA-256, hex): a database leak hands out neither. */
export const hashSecretToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A session id is looked up only in `dashboard_sessions`, a key only in `api_keys`: they never mix. */
export class DashboardAuthService {
  private dummyHash?: Promise<string>;

  constructor(private readonly deps: { accounts: Accounts; accountService: AccountService; sessions: DashboardSessions; attempts: DashboardSignInAttempts }) {}

  async signUp(email: string, password: string, ip: string): Promise<NewSession> {
    checkNewPassword(password);
    // Sign-ups are counted whether they succeed or not: they cost a hash and may create accounts.
    await this.reserve([{ scope: `signup-ip:${clientNetwork(ip)}`, policy: SIGN_UP_PER_IP }]);
    const hash = await hashPassword(password);
    const account = await this.deps.accountService.createAccount(email, 'free', hash).catch((err: unknown) => {
      throw isDomainError(err, 'email_taken') ? new DomainError('sign_up_refused', SIGN_UP_REFUSED) : err;
    });
    return this.startSession(account.id);
  }

  /** Throttled first (cheap); an unknown email verifies against a dummy hash, as slow as a real one. */
  async signIn(email: string, password: string, ip: string): Promise<NewSession> {
    const normalized = email.trim().toLowerCase();
    const network = clientNetwork(ip);
    const reservation = await this.reserve([
      { scope: `email-ip:${network}:${normalized}`, policy: SIGN_IN_PER_EMAIL_AND_IP },
      { scope: `ip:${network}`, policy: SIGN_IN_PER_IP },
    ]);
    const account = normalized.length > 0 ? await this.deps.accounts.findByEmail(normalized) : null;
    const usable = password.length > 0 && password.length <= MAX_PASSWORD_LENGTH;
    const stored = account?.password_hash;
    const against = usable ? (stored ?? (this.dummyHash ??= hashPassword(randomBytes(32).toString('hex')))) : undefined;
    const verified = against !== undefined && (await argon2.verify(await against, password).catch(() => false));
    if (!account || !stored || !verified) throw new DomainError('invalid_credentials', INVALID_CREDENTIALS_MESSAGE);
    // A successful sign-in is not a failure: its reservations are withdrawn.
    await reservation.withdraw();
    return this.startSession(account._id);
  }

  async signOut(sessionId: string | undefined): Promise<void> {
    if (sessionId && isSecretToken(sessionId)) await this.deps.sessions.delete(hashSecretToken(sessionId));
  }

  /** The session a cookie value names, if it exists and has not expired (checked on every read). */
  async resolveSession(sessionId: string | undefined) {
    if (!sessionId || !isSecretToken(sessionId)) return null;
    const doc = await this.deps.sessions.findValid(hashSecretToken(sessionId), systemClock());
    if (!doc) return null;
    const account = await this.deps.accounts.findById(doc.account_id);
    if (!account) return null;
    return { csrfToken: doc.csrf_token, account };
  }

  /** Signs in an account whose identity was proven another way (a redeemed invite link). */
  async startSession(accountId: string) {
    const id = newSecretToken();
    const csrfToken = newSecretToken();
    const now = systemClock();
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    await this.deps.sessions.insert({ _id: hashSecretToken(id), account_id: accountId, csrf_token: csrfToken, created_at: now, expires_at: expiresAt });
    return { id, csrfToken, expiresAt };
  }

  /** Counts the attempt per scope (exact: a conditional update per scope); refused by one, it is withdrawn from all. */
  private async reserve(scopes: { scope: string; policy: { limit: number; windowMs: number } }[]): Promise<{ withdraw(): Promise<void> }> {
    const now = systemClock();
    const counted: { scope: string; windowEnd: Date }[] = [];
    const withdraw = async () => void (await Promise.all(counted.map(({ scope, windowEnd }) => this.deps.attempts.withdraw(scope, windowEnd))));
    for (const { scope, policy } of scopes) {
      const result = await this.deps.attempts.count(scope, now, policy.windowMs, policy.limit);
      if ('liftsAt' in result) {
        await withdraw();
        const wait = Math.max(1, Math.ceil((result.liftsAt.getTime() - now.getTime()) / 1000));
        throw new DomainError('too_many_attempts', 'Too many attempts. Wait a few minutes and try again.', { retry_after: wait }, { retryAfterSeconds: wait });
      }
      counted.push({ scope, windowEnd: result.windowEnd });
    }
    return { withdraw };
  }
}

/** The one way a dashboard password is hashed (sign-up, invite links): argon2id with the library's defaults (64 MiB, t=3, p=4), above OWASP's minimum. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export function checkNewPassword(password: string): void {
  const { length } = password;
  const bound = length < MIN_PASSWORD_LENGTH ? `at least ${MIN_PASSWORD_LENGTH}` : length > MAX_PASSWORD_LENGTH ? `at most ${MAX_PASSWORD_LENGTH}` : null;
  if (bound) throw new ValidationError(`Password must be ${bound} characters long.`, [{ path: 'password', message: `Must be ${bound} characters` }]);
}

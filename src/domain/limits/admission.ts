import type { LimitExceededError } from '../errors';

/** The port through which a call is admitted against its limits; exact across processes, so implemented in src/persistence. */
export interface LimitAdmitter {
  /** Admits one call under `policy`, or rejects with a LimitRejection (burst or quota). */
  admit(policy: LimitPolicy): Promise<Admission>;
  /** Calls counted in the current billing period of `bucket` (the dashboard's figure). */
  usage(bucket: string): Promise<number>;
  /**
   * The limits of `policy` as this process knows them now, without counting a call or reading the
   * store (the headers of a call refused before it is metered); null when this process does not
   * know the current window or period of the bucket yet.
   */
  peek(policy: LimitPolicy): LimitState | null;
}

export interface LimitPolicy {
  /** Whose calls share the limits: an account, or an anonymous client network (see policies.ts). */
  bucket: string;
  burstLimit: number;
  /** Infinity: no quota. */
  quotaLimit: number;
  /**
   * Whether the billing period's calls are counted (X-Quota-Used, the dashboard). A policy
   * without a quota may skip counting: nothing is decided by the count.
   */
  countUsage: boolean;
}

export interface LimitState {
  burstLimit: number;
  burstRemaining: number;
  burstResetAt: Date;
  quotaUsed: number;
  quotaLimit: number;
}

export interface Admission {
  state: LimitState;
  /** Gives the call back (a 5xx is not counted against either limit). */
  release(): Promise<void>;
}

/** A rejected call: the error for the body, the state for the headers. */
export class LimitRejection extends Error {
  constructor(readonly error: LimitExceededError, readonly state: LimitState) {
    super(error.message);
  }
}

import type { LimitExceededError } from '../errors';

/** The port through which a call is admitted against its limits; exact across processes, so implemented in src/persistence. */
export interface LimitAdmitter {
  /** Admits one call under `policy`, or rejects with a LimitRejection (burst or quota). */
  admit(policy: LimitPolicy): Promise<Admission>;
  /** `admit`, answered (or thrown) synchronously when this process decides it alone (calls it holds, a limit it knows used up): a promise only when the store must be asked. */
  admitNow(policy: LimitPolicy): Admission | Promise<Admission>;
  /** Calls counted in the current billing period of `bucket` (the dashboard's figure). */
  usage(bucket: string): Promise<number>;
  /** The limits as this process knows them, without counting or reading the store (headers of a call shed before metering); null when unknown. */
  peek(policy: LimitPolicy): LimitState | null;
}

export interface LimitPolicy {
  /** Whose calls share the limits: an account, or an anonymous client network (see policies.ts). */
  bucket: string;
  burstLimit: number;
  /** Infinity: no quota. */
  quotaLimit: number;
  /** Whether the period's calls are counted (X-Quota-Used, the dashboard); nothing is decided by the count without a quota. */
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

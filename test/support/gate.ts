/**
 * Holds one side of a race at the racy point: `hold` wraps a method so that its first call
 * (or every call matching `when`) waits until the gate opens. `reached` resolves once a call is held.
 */
export interface Gate {
  reached: Promise<void>;
  open(): void;
}

/** The names of `T`'s asynchronous methods: only those can be held (a held call must be able to wait). */
export type AsyncMethodName<T> = {
  [K in keyof T]-?: T[K] extends (...args: any[]) => Promise<unknown> ? K : never;
}[keyof T];

type ArgsOf<F> = F extends (...args: infer A) => unknown ? A : never;

export interface HoldOptions<A extends unknown[]> {
  /** Hold only the calls whose arguments match (all by default). */
  when?: (...args: A) => boolean;
  /** How many matching calls to hold (1 by default). */
  times?: number;
  /** Let a held call go on its own after this long (never by default). */
  maxHoldMs?: number;
}

/**
 * Wraps `target[method]`, which must be an existing method: a name that resolves to no function
 * throws here, so a test can never hold a method that was renamed or removed and silently hold nothing.
 */
export function holdMethod<T extends object, K extends AsyncMethodName<T>>(
  target: T,
  method: K,
  options: HoldOptions<ArgsOf<T[K]>> = {},
): Gate & { restore(): void } {
  const original: unknown = target[method];
  if (typeof original !== 'function') {
    throw new TypeError(`holdMethod: ${String(method)} is not a method of ${target.constructor?.name ?? 'the target'}, so there is nothing to hold`);
  }
  const hadOwn = Object.prototype.hasOwnProperty.call(target, method);
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let markReached!: () => void;
  const reached = new Promise<void>((r) => (markReached = r));
  let held = 0;
  const times = options.times ?? 1;
  const when = options.when as ((...args: unknown[]) => boolean) | undefined;
  const wrapper = async function (this: unknown, ...args: unknown[]) {
    if (held < times && (when?.(...args) ?? true)) {
      held++;
      markReached();
      const timeout = options.maxHoldMs ? new Promise<void>((r) => setTimeout(r, options.maxHoldMs)) : new Promise<void>(() => undefined);
      await Promise.race([opened, timeout]);
    }
    return (original as (...a: unknown[]) => Promise<unknown>).apply(target, args);
  };
  (target as Record<PropertyKey, unknown>)[method as PropertyKey] = wrapper;
  const restore = () => {
    if (hadOwn) (target as Record<PropertyKey, unknown>)[method as PropertyKey] = original;
    else delete (target as Record<PropertyKey, unknown>)[method as PropertyKey];
  };
  return { reached, open, restore };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * For fakes whose answers can be held (the store answered, the answer not yet delivered):
 * `passed()` waits while the gate is held; `hold()` holds it and returns the release.
 */
export function answerGate(): { passed(): Promise<void>; hold(): () => void } {
  let gate: Promise<void> | null = null;
  return {
    passed: async () => {
      if (gate) await gate;
    },
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
  };
}

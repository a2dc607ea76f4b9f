/**
 * Holds one side of a race at the racy point: `hold` wraps a method so that its first call
 * (or every call matching `when`) waits until the gate opens. `reached` resolves once a call is held.
 */
export interface Gate {
  reached: Promise<void>;
  open(): void;
}

export function holdMethod<T extends object, K extends keyof T>(
  target: T,
  method: K,
  options: { when?: (...args: any[]) => boolean; times?: number; maxHoldMs?: number } = {},
): Gate & { restore(): void } {
  const original = target[method] as unknown as ((...args: any[]) => Promise<unknown>) | undefined;
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let markReached!: () => void;
  const reached = new Promise<void>((r) => (markReached = r));
  let held = 0;
  const times = options.times ?? 1;
  (target as any)[method] = async function (this: unknown, ...args: any[]) {
    if (held < times && (options.when?.(...args) ?? true)) {
      held++;
      markReached();
      const timeout = options.maxHoldMs ? new Promise<void>((r) => setTimeout(r, options.maxHoldMs)) : new Promise<void>(() => undefined);
      await Promise.race([opened, timeout]);
    }
    return original?.apply(target, args);
  };
  return { reached, open, restore: () => ((target as any)[method] = original) };
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

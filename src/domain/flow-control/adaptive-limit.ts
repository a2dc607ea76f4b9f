/** AIMD concurrency limit (as TCP): grows while an interval's p90 is on target and the limit held work back, shrinks when over. */
export interface AdaptiveLimitTuning {
  min: number;
  max: number;
  targetMs: number;
  increase: number;
  /** Factor applied when the latency is over target. */
  decrease: number;
  intervalMs: number;
}

export interface LimitInterval {
  /** undefined: nothing measured in the interval. */
  p90Ms: number | undefined;
  /** Whether the limit held something back during the interval (the limit, not demand, was what bound). */
  wasFull: boolean;
}

export function nextLimit(current: number, interval: LimitInterval, tuning: AdaptiveLimitTuning): number {
  if (interval.p90Ms === undefined) return current;
  if (interval.p90Ms > tuning.targetMs) return Math.max(tuning.min, Math.floor(current * tuning.decrease));
  if (interval.wasFull) return Math.min(tuning.max, current + tuning.increase);
  return current;
}

export class AdaptiveLimit {
  private current: number;
  private startedAt: number;
  private samples: number[] = [];
  private wasFull = false;

  constructor(
    private readonly tuning: AdaptiveLimitTuning,
    private readonly now: () => number = Date.now,
  ) {
    this.current = tuning.max;
    this.startedAt = now();
  }

  get value(): number {
    return this.current;
  }

  markFull(): void {
    this.wasFull = true;
  }

  /** One measured latency; at the end of an interval the limit is decided again. True when it changed. */
  observe(latencyMs: number): boolean {
    this.samples.push(latencyMs);
    const now = this.now();
    if (now - this.startedAt < this.tuning.intervalMs) return false;
    const next = nextLimit(this.current, { p90Ms: p90(this.samples), wasFull: this.wasFull }, this.tuning);
    this.samples = [];
    this.wasFull = false;
    this.startedAt = now;
    const changed = next !== this.current;
    this.current = next;
    return changed;
  }
}

function p90(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))];
}

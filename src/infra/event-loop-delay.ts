import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { setEventLoopDelaySeconds } from './metrics';

/** This process's event-loop delay, p99 per second: it rises when the process is out of CPU. */
export class EventLoopDelay {
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private previous = 0;

  constructor(private readonly histogram: Pick<IntervalHistogram, 'enable' | 'disable' | 'reset' | 'count' | 'percentile'> = monitorEventLoopDelay({ resolution: 10 })) {}

  start(intervalMs = 1_000): this {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.previous = this.last;
      this.last = this.histogram.count > 0 ? this.histogram.percentile(99) / 1e6 : 0;
      this.histogram.reset();
      setEventLoopDelaySeconds(this.last / 1000);
    }, intervalMs);
    this.timer.unref();
    return this;
  }

  /** The lower p99 of the last two intervals, so one pause (a garbage collection) is not overload. */
  sustainedP99Ms(): number {
    return Math.min(this.last, this.previous);
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}

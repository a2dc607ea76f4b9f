import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { setEventLoopDelay } from './metrics';

/**
 * This process's event-loop delay: how late a callback that is ready runs, p99 per second. It
 * rises when the process is out of CPU, which in a process that runs both the API and a worker is
 * when accepted work begins to wait (ingest answers, workflow tasks, attempts). `sustainedP99Ms`
 * is the lower of the last two seconds, so that one pause (a garbage collection) is not taken for
 * overload. Nothing is measured before `start()`: the platform starts it once it is up, so the
 * seconds spent building the workflow bundle are not taken for overload either.
 */
export class EventLoopDelay {
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private previous = 0;

  /** `histogram`: where the delays are read (Node's event-loop monitor; a stand-in in tests). */
  constructor(private readonly histogram: Pick<IntervalHistogram, 'enable' | 'disable' | 'reset' | 'count' | 'percentile'> = monitorEventLoopDelay({ resolution: 10 })) {}

  start(intervalMs = 1_000): this {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.previous = this.last;
      this.last = this.histogram.count > 0 ? this.histogram.percentile(99) / 1e6 : 0;
      this.histogram.reset();
      setEventLoopDelay(this.last);
    }, intervalMs);
    this.timer.unref();
    return this;
  }

  /** The lower p99 of the last two complete intervals, in ms. */
  sustainedP99Ms(): number {
    return Math.min(this.last, this.previous);
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}

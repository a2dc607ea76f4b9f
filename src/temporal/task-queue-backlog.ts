import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { setTaskQueueBacklogAge } from '../infra/metrics';
import { periodic, type Periodic } from '../infra/periodic';

const { TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY } = temporal.api.enums.v1.TaskQueueType;
const TASK_QUEUE_KIND_NORMAL = temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL;

/** How often the backlog is read: Temporal refreshes its stats as often (matching.TaskQueueInfoByBuildIdTTL, set on the server). */
const READ_EVERY_MS = 250;
/** A reading older than this counts for nothing: starts are not held on what Temporal no longer says. */
const FRESH_FOR_MS = 2_000;

/**
 * How long the oldest task of the delivery task queue has waited for a worker (workflow or
 * activity tasks, whichever is older), read from Temporal (DescribeTaskQueue with its stats) four
 * times a second. It is what every process can see of the workers' load, wherever they run: a
 * backlog that ages means work is started faster than the workers take it.
 *
 * Open while the backlog is at most `targetMs` old. While it is not, an API process starts only the
 * deliveries of accounts below an equal share (wiring.ts: the outbox's `cannotMove`): Temporal
 * dispatches by account in turn, so those still go first, while the others wait in the outbox,
 * where admission refuses them, instead of deepening a queue whose every task Temporal writes to
 * its store and reads back.
 */
export class TaskQueueBacklog {
  private ageMs = 0;
  private readAt = -Infinity;
  private readonly listeners: Array<() => void> = [];
  private loop?: Periodic;

  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly targetMs: number,
    private readonly onError: (err: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The oldest task's wait at the last reading (0 when none is fresh). */
  get oldestWaitMs(): number {
    return this.now() - this.readAt > FRESH_FOR_MS ? 0 : this.ageMs;
  }

  isOpen(): boolean {
    return this.oldestWaitMs <= this.targetMs;
  }

  /** `listener` is called at every reading (or failed reading) that finds the backlog open. */
  onOpen(listener: () => void): void {
    this.listeners.push(listener);
  }

  async refresh(): Promise<void> {
    const ages = await Promise.all([TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY].map((type) => this.backlogAgeMs(type)));
    this.observed(Math.max(...ages));
  }

  /** One reading of the oldest task's wait; wakes whoever waits for the gate when it is open. */
  observed(ageMs: number): void {
    this.ageMs = ageMs;
    this.readAt = this.now();
    setTaskQueueBacklogAge(ageMs / 1000);
    if (this.isOpen()) this.notify();
  }

  start(): void {
    this.loop ??= periodic(() => this.refresh(), READ_EVERY_MS, (err) => {
      this.onError(err);
      // Once the last reading is stale, nothing holds starts.
      if (this.isOpen()) this.notify();
    });
  }

  /** Stops reading; from then on it is open. */
  async stop(): Promise<void> {
    await this.loop?.stop();
    this.readAt = -Infinity;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private async backlogAgeMs(taskQueueType: temporal.api.enums.v1.TaskQueueType): Promise<number> {
    const { stats } = await this.client.workflowService.describeTaskQueue({
      namespace: this.client.options.namespace,
      taskQueue: { name: this.taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
      taskQueueType,
      reportStats: true,
    });
    const age = stats?.approximateBacklogAge;
    return age ? Number(age.seconds ?? 0) * 1000 + Math.round((age.nanos ?? 0) / 1e6) : 0;
  }
}

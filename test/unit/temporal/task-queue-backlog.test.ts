import type { Client } from '@temporalio/client';
import { TaskQueueBacklog } from '../../../src/temporal/task-queue-backlog';

/** A client whose DescribeTaskQueue answers the given backlog ages (ms) by task-queue type, or fails. */
function clientAnswering(ages: { workflow: number; activity: number } | Error) {
  const calls: Array<{ taskQueueType: number; reportStats: boolean }> = [];
  const client = {
    options: { namespace: 'default' },
    workflowService: {
      describeTaskQueue: async (req: { taskQueueType: number; reportStats: boolean }) => {
        calls.push(req);
        if (ages instanceof Error) throw ages;
        const ms = req.taskQueueType === 1 ? ages.workflow : ages.activity;
        return { stats: { approximateBacklogAge: { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 } } };
      },
    },
  };
  return { client: client as unknown as Client, calls };
}

describe('TaskQueueBacklog', () => {
  it("reads the oldest task's wait of workflow and activity tasks, with Temporal's stats", async () => {
    const { client, calls } = clientAnswering({ workflow: 300, activity: 1_250 });
    const backlog = new TaskQueueBacklog(client, 'q', 500, () => undefined);
    await backlog.refresh();
    expect(backlog.oldestWaitMs).toBe(1_250);
    expect(calls.map((c) => c.taskQueueType).sort()).toEqual([1, 2]);
    expect(calls.every((c) => c.reportStats)).toBe(true);
  });

  it('is open while the oldest task has waited at most the target', async () => {
    const backlog = new TaskQueueBacklog(clientAnswering({ workflow: 500, activity: 0 }).client, 'q', 500, () => undefined);
    await backlog.refresh();
    expect(backlog.isOpen()).toBe(true);
  });

  it('is closed while the oldest task has waited longer than the target', async () => {
    const backlog = new TaskQueueBacklog(clientAnswering({ workflow: 501, activity: 0 }).client, 'q', 500, () => undefined);
    await backlog.refresh();
    expect(backlog.isOpen()).toBe(false);
  });

  it('tells its listeners at each reading that finds the backlog young again, not before', () => {
    const backlog = new TaskQueueBacklog(clientAnswering({ workflow: 0, activity: 0 }).client, 'q', 500, () => undefined);
    let told = 0;
    backlog.onOpen(() => told++);
    backlog.observed(2_000);
    backlog.observed(1_000);
    expect(told).toBe(0);
    backlog.observed(200);
    expect(told).toBe(1);
  });

  it('a reading that has grown stale holds nothing', () => {
    let now = 0;
    const backlog = new TaskQueueBacklog(clientAnswering({ workflow: 0, activity: 0 }).client, 'q', 500, () => undefined, () => now);
    backlog.observed(5_000);
    expect(backlog.isOpen()).toBe(false);
    now += 2_001;
    expect(backlog.isOpen()).toBe(true);
  });

  it('stopping opens it and tells its listeners', async () => {
    const backlog = new TaskQueueBacklog(clientAnswering({ workflow: 0, activity: 0 }).client, 'q', 500, () => undefined);
    backlog.observed(5_000);
    let told = 0;
    backlog.onOpen(() => told++);
    await backlog.stop();
    expect(backlog.isOpen()).toBe(true);
    expect(told).toBe(1);
  });

  it('a failed reading is reported and keeps the last one', async () => {
    const backlog = new TaskQueueBacklog(clientAnswering(new Error('unavailable')).client, 'q', 500, () => undefined);
    backlog.observed(900);
    await expect(backlog.refresh()).rejects.toThrow('unavailable');
    expect(backlog.oldestWaitMs).toBe(900);
  });
});

import { Client, WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { RunEnded } from '../../../activities/attempt-hand-off';
import { DeliveryScheduler } from '../../../src/temporal/delivery-scheduler';

/** The deadlines the scheduler's calls were made under. */
const deadlines: number[] = [];
/** A scheduler whose every update to a workflow ends as `update` does. */
function schedulerWhoseUpdates(update: () => Promise<unknown>): DeliveryScheduler {
  const withDeadline = (deadline: number, call: () => Promise<unknown>) => (deadlines.push(deadline), call());
  const client = { withDeadline, workflow: { getHandle: () => ({ executeUpdate: update }) } } as unknown as Client;
  return new DeliveryScheduler(client, 'deliveries');
}

const notFound = () => Promise.reject(new WorkflowNotFoundError('gone', 'wf-1', undefined));
const rejected = () => Promise.reject(new WorkflowUpdateFailedError('rejected', new Error('not waiting')));
const unavailable = () => Promise.reject(new Error('server unavailable'));
const untaken = () => Promise.reject(new WorkflowUpdateRPCTimeoutOrCancelledError('deadline exceeded'));
const DEADLINE = Date.parse('2026-11-30T12:00:10Z');
const run = { workflowId: 'wf-1' };
const reported = { round: 1, attempt: 1 };

describe('retry now, told to a delivery workflow', () => {
  it('answers the attempt the delivery makes', async () => {
    const made = { attempt: 2 };
    await expect(schedulerWhoseUpdates(() => Promise.resolve(made)).retryNow('wf-1', DEADLINE)).resolves.toBe(made);
  });

  it('answers null when the delivery does not exist', async () => {
    await expect(schedulerWhoseUpdates(notFound).retryNow('wf-1', DEADLINE)).resolves.toBeNull();
  });

  it('answers null when the delivery rejects it (it does not wait to retry)', async () => {
    await expect(schedulerWhoseUpdates(rejected).retryNow('wf-1', DEADLINE)).resolves.toBeNull();
  });

  it('fails with any other error', async () => {
    await expect(schedulerWhoseUpdates(unavailable).retryNow('wf-1', DEADLINE)).rejects.toThrow('server unavailable');
  });

  it("waits for the delivery's worker only until the deadline it is given", async () => {
    deadlines.length = 0;
    await schedulerWhoseUpdates(() => Promise.resolve({ attempt: 2 })).retryNow('wf-1', DEADLINE);
    expect(deadlines).toEqual([DEADLINE]);
  });

  it("answers 'unanswered' when no worker took it by then", async () => {
    await expect(schedulerWhoseUpdates(untaken).retryNow('wf-1', DEADLINE)).resolves.toBe('unanswered');
  });
});

describe('a handed-off attempt outcome, reported to its run', () => {
  it('resolves once the run takes it', async () => {
    await expect(schedulerWhoseUpdates(() => Promise.resolve()).reportOutcome(run, reported, DEADLINE)).resolves.toBeUndefined();
  });

  it('fails with RunEnded when the run does not exist', async () => {
    await expect(schedulerWhoseUpdates(notFound).reportOutcome(run, reported, DEADLINE)).rejects.toBeInstanceOf(RunEnded);
  });

  it('fails with RunEnded when the run rejects it (it no longer waits for it)', async () => {
    await expect(schedulerWhoseUpdates(rejected).reportOutcome(run, reported, DEADLINE)).rejects.toBeInstanceOf(RunEnded);
  });

  it('fails with any other error as it is, to be sent again', async () => {
    const failing = schedulerWhoseUpdates(unavailable).reportOutcome(run, reported, DEADLINE);
    await expect(failing).rejects.not.toBeInstanceOf(RunEnded);
    await expect(failing).rejects.toThrow('server unavailable');
  });

  it("waits for the run's worker only until the deadline it is given", async () => {
    deadlines.length = 0;
    await schedulerWhoseUpdates(() => Promise.resolve()).reportOutcome(run, reported, DEADLINE);
    expect(deadlines).toEqual([DEADLINE]);
  });
});

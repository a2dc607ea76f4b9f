import { randomUUID } from 'node:crypto';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { timeSkippingEnv } from '../support/workflow-harness';

const { CommandType, EventType } = temporal.api.enums.v1;

/**
 * The time-skipping server the workflow and integration suites run on keeps the real server's rules where our
 * workflows meet them. Here a worker is played by hand over the gRPC API, so a workflow task can be held at the
 * racy point: with the worker while the timer its commands cancel fires.
 */
describe('the time-skipping test server', () => {
  const env = timeSkippingEnv();
  const namespace = 'default';
  const identity = 'held-worker';

  it('takes a workflow task that cancels a timer which fired while the task was with the worker, recording TimerCanceled', async () => {
    const service = env().client.workflowService;
    const taskQueue = { name: `cancel-fired-${randomUUID()}` };
    const workflowId = `cancel-fired-${randomUUID()}`;
    await service.startWorkflowExecution({ namespace, workflowId, workflowType: { name: 'held' }, taskQueue, identity, requestId: randomUUID(), workflowTaskTimeout: msToTs('1 minute') });
    const first = await service.pollWorkflowTaskQueue({ namespace, taskQueue, identity });
    const timer = { timerId: 'retry', startToFireTimeout: msToTs('1 second') };
    await service.respondWorkflowTaskCompleted({ namespace, identity, taskToken: first.taskToken, commands: [{ commandType: CommandType.COMMAND_TYPE_START_TIMER, startTimerCommandAttributes: timer }] });

    // A signal (a cancellation, in the delivery workflow) gives the workflow a task, held here while the timer fires.
    await service.signalWorkflowExecution({ namespace, workflowExecution: { workflowId }, signalName: 'stop', identity, requestId: randomUUID() });
    const held = await service.pollWorkflowTaskQueue({ namespace, taskQueue, identity });
    await env().sleep(3_000);
    await service.respondWorkflowTaskCompleted({
      namespace,
      identity,
      taskToken: held.taskToken,
      commands: [{ commandType: CommandType.COMMAND_TYPE_CANCEL_TIMER, cancelTimerCommandAttributes: { timerId: timer.timerId } }],
    });

    const { history } = await service.getWorkflowExecutionHistory({ namespace, execution: { workflowId } });
    const types = (history?.events ?? []).map((event) => event.eventType);
    expect(types.slice(-2)).toEqual([EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, EventType.EVENT_TYPE_TIMER_CANCELED]);
    expect(types).not.toContain(EventType.EVENT_TYPE_TIMER_FIRED);
  });
});

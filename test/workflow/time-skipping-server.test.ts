import { randomUUID } from 'node:crypto';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { timeSkippingEnv } from '../support/workflow-harness';

const { CommandType, EventType } = temporal.api.enums.v1;
type Command = temporal.api.command.v1.ICommand;

/**
 * The time-skipping server the workflow and integration suites run on keeps the real server's rules where our
 * workflows meet them. Here a worker is played by hand over the gRPC API, so a workflow task can be held at the
 * racy point: with the worker while the timer its commands cancel fires.
 */
describe('the time-skipping test server', () => {
  const env = timeSkippingEnv();
  const namespace = 'default';
  const identity = 'held-worker';
  const timerId = 'retry';
  const cancelTimer: Command = { commandType: CommandType.COMMAND_TYPE_CANCEL_TIMER, cancelTimerCommandAttributes: { timerId } };

  /** A workflow whose 1 s timer fires while its next task (a signal's, as a cancellation gives one) is held; then `commands` complete that task. */
  async function completeHeldTask(commands: Command[]): Promise<Array<temporal.api.enums.v1.EventType | null | undefined>> {
    const service = env().client.workflowService;
    const taskQueue = { name: `cancel-fired-${randomUUID()}` };
    const workflowId = `cancel-fired-${randomUUID()}`;
    await service.startWorkflowExecution({ namespace, workflowId, workflowType: { name: 'held' }, taskQueue, identity, requestId: randomUUID(), workflowTaskTimeout: msToTs('1 minute') });
    const first = await service.pollWorkflowTaskQueue({ namespace, taskQueue, identity });
    const startTimer = { commandType: CommandType.COMMAND_TYPE_START_TIMER, startTimerCommandAttributes: { timerId, startToFireTimeout: msToTs('1 second') } };
    await service.respondWorkflowTaskCompleted({ namespace, identity, taskToken: first.taskToken, commands: [startTimer] });

    await service.signalWorkflowExecution({ namespace, workflowExecution: { workflowId }, signalName: 'stop', identity, requestId: randomUUID() });
    const held = await service.pollWorkflowTaskQueue({ namespace, taskQueue, identity });
    await env().sleep(3_000);
    await service.respondWorkflowTaskCompleted({ namespace, identity, taskToken: held.taskToken, commands });

    const { history } = await service.getWorkflowExecutionHistory({ namespace, execution: { workflowId } });
    return (history?.events ?? []).map((event) => event.eventType);
  }

  it('takes a workflow task that cancels a timer which fired while the task was with the worker, recording TimerCanceled', async () => {
    const events = await completeHeldTask([cancelTimer]);
    expect(events.slice(-2)).toEqual([EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, EventType.EVENT_TYPE_TIMER_CANCELED]);
    expect(events).not.toContain(EventType.EVENT_TYPE_TIMER_FIRED);
  });

  it('lets that task complete the workflow too: the cancelled timer’s firing is no new event', async () => {
    const complete: Command = { commandType: CommandType.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, completeWorkflowExecutionCommandAttributes: {} };
    const events = await completeHeldTask([cancelTimer, complete]);
    expect(events.slice(-3)).toEqual([EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, EventType.EVENT_TYPE_TIMER_CANCELED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED]);
    expect(events).not.toContain(EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
  });
});

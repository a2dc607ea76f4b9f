import { WorkflowFailedError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { DELIVERY_WORKFLOW_TYPE } from '../../src/temporal/delivery-scheduler';
import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';

/**
 * Anyone who reaches Temporal can start a delivery workflow. The worker signs only what the
 * platform accepted: the event must exist, belong to the account, have been matched to the endpoint,
 * and carry the body that was accepted.
 */
describe('a delivery workflow started by hand', () => {
  const fixture = receivingPlatform();

  async function startByHand(input: Record<string, unknown>, workflowType: string = DELIVERY_WORKFLOW_TYPE) {
    const { platform } = fixture;
    const handle = await platform.temporal.workflow.start(workflowType, {
      taskQueue: platform.config.temporal.taskQueue,
      workflowId: `forged-${Math.random().toString(36).slice(2)}`,
      args: [input],
    });
    return handle.result().then(
      () => 'completed',
      (err: unknown) => (err instanceof WorkflowFailedError ? (err.cause as { type?: string } | undefined)?.type ?? err.cause?.message : String(err)),
    );
  }

  // The type started before V2 stays registered for its running workflows: it is as guarded.
  it.each([DELIVERY_WORKFLOW_TYPE, 'deliveryWorkflow'])("as %s with a victim's account and endpoint and a body of its own posts nothing and fails as not accepted", async (workflowType) => {
    const victim = await fixture.subscribe(() => ({ status: 200 }), { path: `/victim-${workflowType}` });
    const real = (await victim.api.post('/api/v1/webhooks/events', { type: 'order.paid', data: { amount: 1 } })).body;
    await eventually(async () => (victim.receiver.received.length === 1 ? true : undefined), 20_000);
    const outcome = await startByHand({
      eventId: real.id,
      endpointId: victim.endpoint.id,
      accountId: victim.accountId,
      round: 1,
      type: 'order.paid',
      timestamp: real.timestamp,
      body: JSON.stringify({ id: real.id, type: 'order.paid', data: { amount: 1_000_000 }, timestamp: real.timestamp }),
    }, workflowType);
    expect(outcome).toBe('DeliveryNotAccepted');
    expect(victim.receiver.received).toHaveLength(1);
  });

  it("with another account's event and the victim's endpoint posts nothing", async () => {
    const victim = await fixture.subscribe(() => ({ status: 200 }), { path: '/victim-2' });
    const attacker = await fixture.subscribe(() => ({ status: 200 }), { path: '/attacker' });
    const own = (await attacker.api.post('/api/v1/webhooks/events', { type: 'x.y', data: {} })).body;
    const outcome = await startByHand({ eventId: own.id, endpointId: victim.endpoint.id, accountId: victim.accountId, round: 1 });
    expect(outcome).toBe('DeliveryNotAccepted');
    expect(victim.receiver.received).toHaveLength(0);
    // The attacker's own event is still delivered to the attacker's endpoint, under its own workflow id.
    await eventually(async () => ((await fixture.platform.temporal.workflow.getHandle(deliveryId(own.id, attacker.endpoint.id)).describe()).status.name === 'COMPLETED' ? true : undefined), 20_000);
  });

  it("with a real delivery's seal (read from its history) over a body of its own posts nothing", async () => {
    const victim = await fixture.subscribe(() => ({ status: 200 }), { path: '/victim-3' });
    const real = (await victim.api.post('/api/v1/webhooks/events', { type: 'order.paid', data: { amount: 1 } })).body;
    await eventually(async () => (victim.receiver.received.length === 1 ? true : undefined), 20_000);
    const history = await fixture.platform.temporal.workflow.getHandle(deliveryId(real.id, victim.endpoint.id)).fetchHistory();
    const started = history.events![0].workflowExecutionStartedEventAttributes!;
    const input = defaultPayloadConverter.fromPayload<Record<string, unknown>>(started.input!.payloads![0]);
    expect(input.seal).toMatch(/^v1\./);
    const outcome = await startByHand({ ...input, body: JSON.stringify({ id: real.id, type: 'order.paid', data: { amount: 1_000_000 }, timestamp: real.timestamp }) });
    expect(outcome).toBe('DeliveryNotAccepted');
    expect(victim.receiver.received).toHaveLength(1);
  });
});

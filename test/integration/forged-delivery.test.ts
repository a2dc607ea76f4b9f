import { ActivityFailure, WorkflowFailedError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { DELIVERY_WORKFLOW_TYPE } from '../../src/temporal/delivery-scheduler';
import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { verifySignature } from '../support/spec-signature';

/**
 * Anyone who reaches Temporal can start a delivery workflow. The worker signs only what the
 * platform accepted, on every attempt and only in the delivery's own workflow: the event must exist,
 * belong to the account, have been matched to the endpoint, and carry the body that was accepted.
 */
describe('a delivery workflow started by hand', () => {
  const fixture = receivingPlatform();

  /** How the forged run ends: 'completed', or its failure's type. `withSignal`: started by signalWithStart. */
  async function startByHand(input: Record<string, unknown>, workflowType: string = DELIVERY_WORKFLOW_TYPE, options: { withSignal?: boolean } = {}) {
    const { platform } = fixture;
    const start = { taskQueue: platform.config.temporal.taskQueue, workflowId: `forged-${Math.random().toString(36).slice(2)}`, args: [input] };
    const handle = options.withSignal
      ? await platform.temporal.workflow.signalWithStart(workflowType, { ...start, signal: 'anything', signalArgs: [] })
      : await platform.temporal.workflow.start(workflowType, start);
    return handle.result().then(
      () => 'completed',
      (err: unknown) => {
        if (!(err instanceof WorkflowFailedError)) return String(err);
        // A later attempt is a regular activity: its failure comes wrapped in an ActivityFailure.
        const cause = err.cause instanceof ActivityFailure ? err.cause.cause : err.cause;
        return (cause as { type?: string } | undefined)?.type ?? cause?.message;
      },
    );
  }

  /** The input a real delivery was started with, as its history holds it. */
  async function startedWith(eventId: number, endpointId: string) {
    const history = await fixture.platform.temporal.workflow.getHandle(deliveryId(eventId, endpointId)).fetchHistory();
    return defaultPayloadConverter.fromPayload<Record<string, unknown>>(history.events![0].workflowExecutionStartedEventAttributes!.input!.payloads![0]);
  }

  it("with a victim's account and endpoint and a body of its own posts nothing and fails as not accepted", async () => {
    const victim = await fixture.subscribe(() => ({ status: 200 }), { path: '/victim-1' });
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
    });
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
    const input = await startedWith(real.id, victim.endpoint.id);
    expect(input.seal).toMatch(/^v2\./);
    const outcome = await startByHand({ ...input, body: JSON.stringify({ id: real.id, type: 'order.paid', data: { amount: 1_000_000 }, timestamp: real.timestamp }) });
    expect(outcome).toBe('DeliveryNotAccepted');
    expect(victim.receiver.received).toHaveLength(1);
  });

  it("with a real delivery's sealed input, unchanged, under a workflow id of its own posts nothing", async () => {
    const victim = await fixture.subscribe(() => ({ status: 200 }), { path: '/victim-4' });
    const real = (await victim.api.post('/api/v1/webhooks/events', { type: 'order.paid', data: { amount: 1 } })).body;
    await eventually(async () => (victim.receiver.received.length === 1 ? true : undefined), 20_000);
    const outcome = await startByHand(await startedWith(real.id, victim.endpoint.id));
    expect(outcome).toBe('DeliveryNotAccepted');
    expect(victim.receiver.received).toHaveLength(1);
  });

  // A signal before the first task makes its attempt 1 a possible repeat, answered from the victim's
  // record without a check: the forged run goes on to attempt 2 with the victim's round.
  it("started with a signal, for a victim's round whose attempt 1 failed, with a body of its own posts nothing", async () => {
    const victim = await fixture.subscribe((n) => ({ status: n === 0 ? 500 : 200 }), { path: '/victim-5' });
    const real = (await victim.api.post('/api/v1/webhooks/events', { type: 'order.paid', data: { amount: 1 } })).body;
    await eventually(async () => {
      const event = (await victim.api.get(`/api/v1/webhooks/events/${real.id}`)).body;
      return event.deliveries?.[0]?.attempts?.some((a: { round: number; attempt: number }) => a.round === 1 && a.attempt === 1) ? true : undefined;
    }, 20_000);
    const forgedBody = JSON.stringify({ id: real.id, type: 'order.paid', data: { amount: 1_000_000 }, timestamp: real.timestamp });
    const forged = { eventId: real.id, endpointId: victim.endpoint.id, accountId: victim.accountId, round: 1, type: 'order.paid', timestamp: real.timestamp, body: forgedBody };
    const outcome = await startByHand(forged, DELIVERY_WORKFLOW_TYPE, { withSignal: true });
    const signedWithVictimSecret = victim.receiver.received
      .filter((r) => r.rawBody === forgedBody)
      .map((r) => verifySignature(victim.endpoint.secret, r.rawBody, r.headers['x-webhook-signature']));
    expect(signedWithVictimSecret).toEqual([]);
    expect(outcome).toBe('DeliveryNotAccepted');
  });
});

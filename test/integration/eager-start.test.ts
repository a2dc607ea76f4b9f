import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { apiClient, eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

/**
 * docs/delivery.md "Answer fast, deliver durably": a process that runs API and worker starts its delivery
 * workflows eagerly on its own worker (the first workflow task, and with it the first attempt,
 * comes back with the start instead of going through Temporal's task queue).
 */
describe('eager workflow start', () => {
  const fixture = receivingPlatform();

  it('starts the delivery workflow of an event accepted by an API + worker process on that worker, eagerly', async () => {
    const { api, endpoint, receiver } = await fixture.subscribe(() => ({ status: 200 }), { path: '/eager' });
    const id = (await sendEventAccepted(api, { type: 'eager.start', data: {} })).body.id as number;
    await eventually(async () => receiver.received.length === 1 || undefined);
    const history = await fixture.platform.temporal.workflow.getHandle(deliveryId(id, endpoint.id)).fetchHistory();
    expect(history.events?.[0].workflowExecutionStartedEventAttributes?.eagerExecutionAccepted).toBe(true);
  });
});

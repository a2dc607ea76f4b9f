import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { RESUME_PAGE_SIZE, resumeWorkflowId } from '../../src/domain/webhooks/endpoint-pause';
import { WEBHOOK_DELIVERY_STATUS } from '../../src/temporal/search-attributes';
import type { ResumeWorkflowResult } from '../../workflows/resume';
import { deliveryClosed } from '../support/delivery-workflows';
import { holdMethod } from '../support/gate';
import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

/**
 * docs/delivery.md "Pause and resume": one resume per endpoint, which a later resume does not
 * restart (it is told, and passes once more when through), and which a pause stops at its next
 * page. Against the real Temporal and store: the resume's run, its listings and its signals counted.
 */
describe('resume: bounded work per call', () => {
  const fixture = receivingPlatform();
  const temporal = () => fixture.platform.temporal;
  const deliveries = () => fixture.platform.repositories.deliveries;
  const endpointPath = (endpointId: string, action?: 'pause' | 'resume') => `/api/v1/webhooks/endpoints/${endpointId}${action ? `/${action}` : ''}`;
  const resumeRun = (endpointId: string) => temporal().workflow.getHandle(resumeWorkflowId(endpointId));

  /** How many `resume` signals the delivery's run was sent. */
  async function resumeSignals(workflowId: string): Promise<number> {
    const history = await temporal().workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'resume').length;
  }

  it('absorbs resumes called while one runs (pause, resume, pause, resume): the same run goes on and wakes each delivery, which is delivered once', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/hook' });
    expect((await api.post(endpointPath(endpoint.id, 'pause'))).status).toBe(200);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sendEventAccepted(api, { type: 'order.created', data: {} })).body.id);
    for (const id of ids) {
      await eventually(async () => (await temporal().workflow.getHandle(deliveryId(id, endpoint.id)).describe()).typedSearchAttributes.get(WEBHOOK_DELIVERY_STATUS) === 'paused', 30_000);
    }

    // The first resume's listing is held: its run is running while the others are called.
    const listing = holdMethod(deliveries(), 'pausedForEndpoint', { when: (_endpointId, _after, limit) => limit === RESUME_PAGE_SIZE });
    const listings: number[] = [];
    const list = deliveries().pausedForEndpoint;
    deliveries().pausedForEndpoint = async (...args) => {
      if (args[2] === RESUME_PAGE_SIZE) listings.push(Date.now());
      return list.apply(deliveries(), args);
    };
    try {
      expect((await api.post(endpointPath(endpoint.id, 'resume'))).status).toBe(200);
      await listing.reached;
      const { runId } = await resumeRun(endpoint.id).describe();
      for (const action of ['pause', 'resume', 'pause', 'resume'] as const) expect((await api.post(endpointPath(endpoint.id, action))).status).toBe(200);
      // Not ended and started anew: the same run, still at its first listing.
      const now = await resumeRun(endpoint.id).describe();
      expect({ runId: now.runId, status: now.status.name }).toEqual({ runId, status: 'RUNNING' });
      expect(listings).toHaveLength(1);
      listing.open();

      const result = (await resumeRun(endpoint.id).result()) as ResumeWorkflowResult;
      expect((await resumeRun(endpoint.id).describe()).runId).toBe(runId);
      // One pass for the first resume, one more for those called meanwhile: two listings, whatever their number.
      expect(listings).toHaveLength(2);
      expect(result.ended).toBe(0);
      expect(result.signalled).toBeGreaterThanOrEqual(ids.length);
      expect(result.signalled).toBeLessThanOrEqual(2 * ids.length);
    } finally {
      listing.open();
      listing.restore();
      delete (deliveries() as unknown as Record<string, unknown>).pausedForEndpoint;
    }
    for (const id of ids) expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('COMPLETED');
    for (const id of ids) expect(await resumeSignals(deliveryId(id, endpoint.id))).toBeLessThanOrEqual(2);
    expect(receiver.received).toHaveLength(ids.length);
  }, 120_000);

  it('stops at its next page once the endpoint is paused again: a pause ends what a resume set off', async () => {
    const { api, endpoint, accountId } = await fixture.subscribe(() => ({ status: 200 }), { path: '/hook' });
    expect((await api.post(endpointPath(endpoint.id, 'pause'))).status).toBe(200);
    // Marked waiting, with no run behind them: each signal finds none (counted `ended`).
    const marked = 2 * RESUME_PAGE_SIZE + 50;
    const at = new Date();
    for (let i = 1; i <= marked; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => i + j).map((eventId) =>
          deliveries().markPaused({ id: deliveryId(eventId, endpoint.id), account_id: accountId, event_id: eventId, endpoint_id: endpoint.id }, 1, at),
        ),
      );
    }

    // Its second page's listing is held (the endpoint read for it found it resumed); the pause comes meanwhile.
    const second = holdMethod(deliveries(), 'pausedForEndpoint', { when: (_endpointId, after) => after === RESUME_PAGE_SIZE });
    try {
      expect((await api.post(endpointPath(endpoint.id, 'resume'))).status).toBe(200);
      await second.reached;
      expect((await api.post(endpointPath(endpoint.id, 'pause'))).status).toBe(200);
      second.open();
      // The two pages it had begun, not the third.
      expect(await resumeRun(endpoint.id).result()).toEqual({ signalled: 0, ended: 2 * RESUME_PAGE_SIZE });
    } finally {
      second.open();
      second.restore();
    }
    expect((await api.get(endpointPath(endpoint.id))).body.paused).toBe(true);
  }, 120_000);
});

import { defaultPayloadConverter } from '@temporalio/common';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import { deliveryClosed } from '../support/delivery-workflows';
import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

type HistoryEvent = NonNullable<Awaited<ReturnType<ReturnType<Platform['temporal']['workflow']['getHandle']>['fetchHistory']>>['events']>[number];
type Payload = Parameters<typeof defaultPayloadConverter.fromPayload>[0];

const decoded = (payload: unknown) => defaultPayloadConverter.fromPayload<Record<string, unknown>>(payload as Payload);

/**
 * What someone watching one delivery in the Temporal Web UI (or `temporal workflow show`) sees of
 * each attempt, read from the run's history: the first attempt's marker (a local activity), each
 * retry's ActivityTaskCompleted, a handed-off attempt's `attemptOutcome` update. Real Temporal dev
 * server, real HTTPS receiver.
 */
describe('the steps of each attempt in the delivery run', () => {
  /** Each attempt's result in the history, in order: where it is recorded, and what it says. */
  function attemptResults(history: HistoryEvent[]) {
    return history.flatMap((e) => {
      const marker = e.markerRecordedEventAttributes;
      if (marker?.markerName === 'core_local_activity') return [{ event: 'MarkerRecorded', result: decoded(marker.details?.result?.payloads?.[0]) }];
      const completed = e.activityTaskCompletedEventAttributes;
      if (completed) return [{ event: 'ActivityTaskCompleted', result: decoded(completed.result?.payloads?.[0]) }];
      const update = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
      if (update?.name === 'attemptOutcome') return [{ event: 'UpdateAccepted attemptOutcome', result: decoded(update.args?.payloads?.[0]) }];
      return [];
    });
  }

  async function deliveredHistory(fixture: ReturnType<typeof receivingPlatform>, respond: (i: number) => { status: number; body?: string; delayMs?: number }) {
    const { receiver, api, endpoint } = await fixture.subscribe(respond, { path: '/steps/secret-path' });
    const id = (await sendEventAccepted(api, { type: 'order.paid', data: { card: '4242' } })).body.id;
    expect(await deliveryClosed(fixture.platform.temporal, id, endpoint.id)).toBe('COMPLETED');
    const delivery = await eventually(async () => {
      const d = (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
      return d?.status === 'succeeded' ? d : undefined;
    });
    const history = (await fixture.platform.temporal.workflow.getHandle(deliveryId(id, endpoint.id)).fetchHistory()).events ?? [];
    return { receiver, delivery, history };
  }

  describe('a delivery that fails once, then succeeds', () => {
    const fixture = receivingPlatform();

    it("shows gate → send → settle in the first attempt's marker and in the retry's completion, each send as long as its recorded attempt", async () => {
      const { receiver, delivery, history } = await deliveredHistory(fixture, (i) => (i === 0 ? { status: 500, body: 'receiver body, not for the UI' } : { status: 200 }));
      const [first, second] = delivery.attempts as Array<{ duration_ms: number }>;
      expect(attemptResults(history)).toEqual([
        {
          event: 'MarkerRecorded',
          result: {
            status: 'retrying',
            nextDelayMs: 1_000,
            statusCode: 500,
            steps: { gate: 'send', send: { transport: 'https', result: 'HTTP 500', ms: first.duration_ms }, settle: { recorded: 'retrying', nextAttemptInMs: 1_000 } },
          },
        },
        {
          event: 'ActivityTaskCompleted',
          result: {
            status: 'succeeded',
            nextDelayMs: null,
            statusCode: 200,
            steps: { gate: 'send', send: { transport: 'https', result: 'HTTP 200', ms: second.duration_ms }, settle: { recorded: 'succeeded' } },
          },
        },
      ]);
      const shown = JSON.stringify(attemptResults(history));
      for (const hidden of [receiver.url, '127.0.0.1', 'secret-path', 'receiver body', '4242']) expect(shown).not.toContain(hidden);
    });
  });

  describe('a first attempt handed off (its worker holds no slow first attempts)', () => {
    const fixture = receivingPlatform({ DELIVERY_FIRST_ATTEMPTS_HELD_MAX: '0' });

    it('shows how far it had got in its marker, and its whole steps in the outcome its process reports', async () => {
      const { delivery, history } = await deliveredHistory(fixture, () => ({ status: 200, delayMs: 3_000 }));
      const [only] = delivery.attempts as Array<{ duration_ms: number }>;
      expect(attemptResults(history)).toEqual([
        { event: 'MarkerRecorded', result: { status: 'handed-off', steps: { gate: 'send', handedOffDuring: 'post' } } },
        {
          event: 'UpdateAccepted attemptOutcome',
          result: {
            round: 1,
            attempt: 1,
            outcome: {
              status: 'succeeded',
              nextDelayMs: null,
              statusCode: 200,
              steps: { gate: 'send', send: { transport: 'https', result: 'HTTP 200', ms: only.duration_ms }, settle: { recorded: 'succeeded' } },
            },
          },
        },
      ]);
    }, 60_000);
  });
});

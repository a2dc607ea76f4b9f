import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { resumeWorkflowId } from '../../src/domain/webhooks/endpoint-pause';
import { WEBHOOK_DELIVERY_STATUS } from '../../src/temporal/search-attributes';
import type { ResumeWorkflowResult } from '../../workflows/resume';
import { deliveryClosed } from '../support/delivery-workflows';
import { holdMethod } from '../support/gate';
import { apiClient, eventually } from '../support/platform';
import type { Reply } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

type Api = ReturnType<typeof apiClient>;
type Attempt = { attempt: number; status_code: number | null };

/** The steps and checks of these races, on one test platform (see receivingPlatform). */
function raceSteps(fixture: ReturnType<typeof receivingPlatform>) {
  const setUp = (respond: (index: number) => Reply) => fixture.subscribe(respond, { path: '/hook' });
  const temporal = () => fixture.platform.temporal;
  const eventOf = async (api: Api, eventId: number) => (await api.get(`/api/v1/webhooks/events/${eventId}`)).body;
  const deliveryOf = async (api: Api, eventId: number) => (await eventOf(api, eventId)).deliveries[0];
  const ingest = async (api: Api) => (await sendEventAccepted(api, { type: 'order.created', data: {} })).body.id as number;
  const endpointPath = (endpointId: string, action: 'pause' | 'resume') => `/api/v1/webhooks/endpoints/${endpointId}/${action}`;
  const controlPath = (eventId: number, endpointId: string) => `/api/v1/webhooks/events/${eventId}/deliveries/${endpointId}/cancel`;
  const attemptsOf = (delivery: { attempts: Attempt[] }) => delivery.attempts.map((a) => [a.attempt, a.status_code]);
  /** What the endpoint's resume workflow did, once it has ended. */
  const resumeResult = (endpointId: string) => temporal().workflow.getHandle(resumeWorkflowId(endpointId)).result() as Promise<ResumeWorkflowResult>;

  /** Its run has closed (no attempt can follow) with one attempt, which succeeded, and one POST received. */
  async function expectDeliveredOnce(api: Api, eventId: number, endpointId: string, receiver: { received: unknown[] }): Promise<void> {
    expect(await deliveryClosed(temporal(), eventId, endpointId)).toBe('COMPLETED');
    const delivered = await deliveryOf(api, eventId);
    expect(delivered).toMatchObject({ status: 'succeeded', attempt_count: 1, paused: false });
    expect(attemptsOf(delivered)).toEqual([[1, 200]]);
    expect(receiver.received).toHaveLength(1);
  }

  return { setUp, temporal, eventOf, deliveryOf, ingest, endpointPath, controlPath, attemptsOf, resumeResult, expectDeliveredOnce };
}

/**
 * Control over deliveries racing their attempts, through real Temporal workflows to real HTTPS
 * receivers, each race held at its racy point: pause against an attempt being made, cancel against
 * a success, resume against a new event's attempt.
 */
describe('delivery control races', () => {
  const fixture = receivingPlatform();
  const { setUp, temporal, eventOf, deliveryOf, ingest, endpointPath, controlPath, attemptsOf, resumeResult, expectDeliveredOnce } = raceSteps(fixture);

  /** A reply held until the test releases it: a POST in flight. */
  function heldReply(status: number): { reply: Reply; release: () => void } {
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    return { reply: { status, until }, release };
  }

  it('posts and records an attempt that read its endpoint before the pause, and holds the next one until the resume', async () => {
    const { receiver, api, endpoint } = await setUp(() => ({ status: 500 }));
    // Held after the attempt has read its endpoint (not paused) and before its POST: waiting for its place.
    const gate = holdMethod(fixture.platform.services.attemptSlots, 'enter', { when: (_account, endpointId) => endpointId === endpoint.id });
    let id: number;
    try {
      id = await ingest(api);
      await gate.reached;
      expect((await api.post(endpointPath(endpoint.id, 'pause'))).status).toBe(200);
      expect(receiver.received).toHaveLength(0);
    } finally {
      gate.open();
      gate.restore();
    }

    // It was in flight: it posts, is recorded, and decides the retry; that retry comes due paused.
    const waiting = await eventually(async () => {
      const d = await deliveryOf(api, id);
      return d.paused === true ? d : undefined;
    }, 60_000);
    expect(waiting).toMatchObject({ status: 'retrying', attempt_count: 1 });
    expect(attemptsOf(waiting)).toEqual([[1, 500]]);
    await eventually(async () => (await temporal().workflow.getHandle(deliveryId(id, endpoint.id)).describe()).typedSearchAttributes.get(WEBHOOK_DELIVERY_STATUS) === 'paused', 30_000);
    expect(receiver.received).toHaveLength(1);

    expect((await api.post(endpointPath(endpoint.id, 'resume'))).status).toBe(200);
    const after = await eventually(async () => {
      const d = await deliveryOf(api, id);
      return d.attempt_count === 2 ? d : undefined;
    }, 60_000);
    expect(attemptsOf(after)).toEqual([
      [1, 500],
      [2, 500],
    ]);
    await api.post(controlPath(id, endpoint.id));
    expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('CANCELLED');
    expect(receiver.received).toHaveLength(2);
  }, 120_000);

  it('ends a delivery succeeded, with its attempt recorded, when it is cancelled while that attempt is in flight and then succeeds', async () => {
    const second = heldReply(200);
    const { receiver, api, endpoint } = await setUp((i) => (i === 1 ? second.reply : { status: 500 }));
    const id = await ingest(api);
    // Attempt 2's POST is held open by the receiver while the cancel is answered.
    await eventually(async () => receiver.received.length === 2, 30_000);
    const res = await api.post(controlPath(id, endpoint.id));
    expect(res.status).toBe(202);
    second.release();

    // The attempt in flight finished and was recorded; a delivered delivery is not cancelled after the fact.
    expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('COMPLETED');
    const event = await eventOf(api, id);
    expect(event.status).toBe('delivered');
    expect(event.deliveries[0]).toMatchObject({ status: 'succeeded', attempt_count: 2, next_attempt_at: null });
    expect(attemptsOf(event.deliveries[0])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(receiver.received).toHaveLength(2);
    const again = await api.post(controlPath(id, endpoint.id));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('delivery_ended');
  }, 60_000);

  it("makes a new event's delivery once when its attempt, having read the endpoint paused, marks itself only after the resume has listed the waiting ones", async () => {
    const { receiver, api, endpoint } = await setUp(() => ({ status: 200 }));
    expect((await api.post(endpointPath(endpoint.id, 'pause'))).status).toBe(200);
    const marking = holdMethod(fixture.platform.repositories.deliveries, 'markPaused', { when: (ref) => ref.endpoint_id === endpoint.id });
    let id: number;
    try {
      id = await ingest(api);
      await marking.reached;
      expect((await api.post(endpointPath(endpoint.id, 'resume'))).status).toBe(200);
      // The resume found nothing marked to wake: this delivery was not marked yet.
      expect(await resumeResult(endpoint.id)).toEqual({ signalled: 0, ended: 0 });
    } finally {
      marking.open();
      marking.restore();
    }

    // Marked after the resume, it reads the endpoint again from the store, sees it resumed, and posts.
    await expectDeliveredOnce(api, id, endpoint.id, receiver);
  }, 90_000);
});

/**
 * The same race where the new event's first attempt outlasts its workflow task: handed off
 * (attempt-hand-off.ts, nothing held in the task), so the resume's signal reaches the run while the
 * attempt is still in flight, before it answers `paused`.
 */
describe('delivery control races: a handed-off first attempt', () => {
  const fixture = receivingPlatform({ DELIVERY_FIRST_ATTEMPTS_HELD_MAX: '0' });
  const { setUp, temporal, ingest, endpointPath, resumeResult, expectDeliveredOnce } = raceSteps(fixture);

  it("makes a new event's delivery once when the resume wakes its run while its attempt, marked and still seeing the endpoint paused, is in flight", async () => {
    const { receiver, api, endpoint } = await setUp(() => ({ status: 200 }));
    expect((await api.post(endpointPath(endpoint.id, 'pause'))).status).toBe(200);
    const { deliveries, endpoints } = fixture.platform.repositories;
    // Held once the attempt has marked itself and read the endpoint again from the store, still paused: before it answers `paused`.
    let marked = false;
    const mark = deliveries.markPaused.bind(deliveries);
    deliveries.markPaused = async (ref, round, at) => {
      await mark(ref, round, at);
      if (ref.endpoint_id === endpoint.id) marked = true;
    };
    const find = endpoints.find.bind(endpoints);
    let reached!: () => void;
    const held = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let holding = true;
    endpoints.find = async (accountId, endpointId) => {
      const found = await find(accountId, endpointId);
      if (holding && marked && endpointId === endpoint.id && found?.paused) {
        holding = false;
        reached();
        await released;
      }
      return found;
    };
    const historyOf = async (eventId: number) => (await temporal().workflow.getHandle(deliveryId(eventId, endpoint.id)).fetchHistory()).events ?? [];
    let id: number;
    try {
      id = await ingest(api);
      await held;
      // Its run has handed the attempt off (the local activity's marker) and waits for its report in a later task.
      await eventually(async () => (await historyOf(id)).some((e) => e.markerRecordedEventAttributes), 30_000);
      expect((await api.post(endpointPath(endpoint.id, 'resume'))).status).toBe(200);
      // The resume listed it (marked) and signalled its run while the paused attempt was still in flight.
      expect(await resumeResult(endpoint.id)).toEqual({ signalled: 1, ended: 0 });
      await eventually(async () => (await historyOf(id)).some((e) => e.workflowExecutionSignaledEventAttributes), 30_000);
    } finally {
      release();
      delete (deliveries as Partial<typeof deliveries>).markPaused;
      delete (endpoints as Partial<typeof endpoints>).find;
    }

    // The attempt answers `paused`; the run keeps the signal that came meanwhile and makes it at once, once.
    await expectDeliveredOnce(api, id, endpoint.id, receiver);
  }, 90_000);
});

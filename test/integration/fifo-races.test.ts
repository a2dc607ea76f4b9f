import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { WEBHOOK_DELIVERY_STATUS } from '../../src/temporal/search-attributes';
import { deliveryClosed, timerEnds, waitsQueued } from '../support/delivery-workflows';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, eventually } from '../support/platform';
import { startReceiver, type ReceivedRequest, type Reply } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

/**
 * The turns of a FIFO endpoint racing what ends a turn, through real Temporal workflows to a real
 * HTTPS receiver, each race held at its racy point: a cancel of the head between its look at the
 * queue and its POST, a head that ends while the next delivery is looking at the queue, and a head
 * that ends while the next ingest has taken its place but not yet recorded which event holds it.
 */
describe('FIFO endpoint races', () => {
  const fixture = receivingPlatform();
  const receivers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  type Api = ReturnType<typeof apiClient>;
  const eventIdOf = (r: ReceivedRequest) => Number(r.headers['webhook-id']);
  const temporal = () => fixture.platform.temporal;
  const ingest = async (api: Api) => (await sendEventAccepted(api, { type: 'order.created', data: {} })).body.id as number;
  const statusOf = async (eventId: number, endpointId: string) =>
    (await temporal().workflow.getHandle(deliveryId(eventId, endpointId)).describe()).typedSearchAttributes.get(WEBHOOK_DELIVERY_STATUS);

  async function fifoEndpoint(respond: (req: ReceivedRequest, index: number) => Reply = () => ({ status: 200 })) {
    const receiver = await startReceiver(respond);
    receivers.push(receiver);
    const api = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook`, ordering: 'fifo' })).body;
    return { receiver, api, endpoint };
  }

  /** A FIFO endpoint whose first delivery (`head`) has reached the receiver, which answers it once `releaseHead` is called. */
  async function headInFlight() {
    let releaseHead!: () => void;
    const headHeld = new Promise<void>((r) => (releaseHead = r));
    const { receiver, api, endpoint } = await fifoEndpoint((_req, index) => (index === 0 ? { status: 200, until: headHeld } : { status: 200 }));
    const head = await ingest(api);
    await eventually(async () => receiver.received.length === 1 || undefined, 60_000);
    return { receiver, api, endpoint, head, releaseHead };
  }

  it('keeps the next delivery waiting while a cancelled head that had its turn makes its POST, then starts it', async () => {
    const { receiver, api, endpoint } = await fifoEndpoint();
    // Held after the head has looked at the queue (its turn) and before its POST: waiting for its place.
    const gate = holdMethod(fixture.platform.services.attemptSlots, 'enter', { when: (_account, endpointId) => endpointId === endpoint.id });
    let first: number;
    let second: number;
    try {
      first = await ingest(api);
      await gate.reached;
      // Cancelled at that point: its attempt in flight still finishes; the queue is not freed before it has.
      expect((await api.post(`/api/v1/webhooks/events/${first}/deliveries/${endpoint.id}/cancel`)).status).toBe(202);
      second = await ingest(api);
      await eventually(async () => (await statusOf(second, endpoint.id)) === 'queued', 30_000);
      expect(receiver.received).toHaveLength(0);
    } finally {
      gate.open();
      gate.restore();
    }
    await eventually(async () => receiver.received.length === 2 || undefined, 60_000);
    expect(receiver.received.map(eventIdOf)).toEqual([first, second]);
    expect(await deliveryClosed(temporal(), second, endpoint.id)).toBe('COMPLETED');
    expect((await api.get(`/api/v1/webhooks/events/${second}`)).body.deliveries[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });

  it('wakes a new delivery that looked at the queue while the head was ending: it is never left waiting for its re-look', async () => {
    const { receiver, api, endpoint, head, releaseHead } = await headInFlight();

    // The new delivery's look is held once it has read the head (still held) and before it answers.
    const turns = fixture.platform.services.fifo;
    const look = turns.turnOf.bind(turns);
    let lookRead!: () => void;
    const lookReached = new Promise<void>((r) => (lookRead = r));
    let releaseLook!: () => void;
    const lookHeld = new Promise<void>((r) => (releaseLook = r));
    turns.turnOf = async (eventId, endpointId) => {
      const answer = await look(eventId, endpointId);
      if (endpointId === endpoint.id && !answer.now) {
        lookRead();
        await lookHeld;
      }
      return answer;
    };
    let next: number;
    try {
      next = await ingest(api);
      await lookReached;
      // The head ends meanwhile: it leaves its place and wakes the next, whose look is still in flight.
      releaseHead();
      await eventually(async () => {
        const history = await temporal().workflow.getHandle(deliveryId(next, endpoint.id)).fetchHistory();
        return (history.events ?? []).some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'fifoTurn') || undefined;
      }, 60_000);
    } finally {
      releaseLook();
      turns.turnOf = look;
    }
    await eventually(async () => receiver.received.length === 2 || undefined, 120_000);
    expect(receiver.received.map(eventIdOf)).toEqual([head, next]);
    // Woken by the head, not by its fallback timer.
    expect((await timerEnds(temporal(), deliveryId(next, endpoint.id))).fired).toBe(0);
  });

  it('starts a delivery whose place was recorded only after the head ended: nobody to wake then, it finds the head at its place', async () => {
    const { receiver, api, endpoint, head, releaseHead } = await headInFlight();

    // The next ingest has taken place 2 and is held before it records which event holds it.
    const queues = fixture.platform.repositories.fifoQueues;
    const gate = holdMethod(queues, 'hold', { when: (endpointId, n) => endpointId === endpoint.id && n === 2 });
    let next: Promise<number>;
    try {
      next = ingest(api);
      await gate.reached;
      // The head ends meanwhile and moves the queue's head onto place 2, whose holder it cannot know.
      releaseHead();
      await eventually(async () => (await queues.queue(endpoint.id))?.head === 2 || undefined, 60_000);
    } finally {
      gate.open();
      gate.restore();
    }
    const nextId = await next;
    await eventually(async () => receiver.received.length === 2 || undefined, 60_000);
    expect(receiver.received.map(eventIdOf)).toEqual([head, nextId]);
    // Its first attempt found its turn: it never waited for a wake-up or a re-look.
    expect(await waitsQueued(temporal(), deliveryId(nextId, endpoint.id))).toBe(false);
  });
});

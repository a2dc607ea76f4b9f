import { DeliveryOutbox } from '../../../src/services/delivery-outbox';
import { DeliveryStartWindow } from '../../../src/services/delivery-start-window';
import type { EventDoc } from '../../../src/persistence/events';
import type { DeliveryScheduler, ScheduledDelivery } from '../../../src/temporal/delivery-scheduler';
import { createLogger } from '../../../src/infra/logger';

function event(id: number, endpoints: string[], account = 'acct'): EventDoc {
  return {
    _id: id,
    account_id: account,
    type: 't',
    data: {},
    body: '{}',
    timestamp: 1,
    idempotency_key: null,
    endpoint_ids: endpoints,
    endpoint_urls: endpoints.map((e) => `https://example.test/${e}`),
    owner: 'api_x',
    created_at: new Date(0),
  };
}

/** A scheduler whose starts finish when the test says so. */
function heldScheduler() {
  const started: ScheduledDelivery[] = [];
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const scheduler = {
    async start(d: ScheduledDelivery) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise<void>((r) => waiting.push(r));
      inFlight--;
      started.push(d);
      return 'started' as const;
    },
  } as unknown as DeliveryScheduler;
  return { scheduler, started, release: () => waiting.splice(0).forEach((r) => r()), maxInFlight: () => maxInFlight };
}

const tick = () => new Promise((r) => setImmediate(r));
/** A window of size 0: every start goes at once. */
const noWindow = () => new DeliveryStartWindow(0);

describe('DeliveryOutbox', () => {
  const logger = createLogger('silent');

  it('handedOverThrough stays below the lowest batch with an event whose workflows have not all started', async () => {
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 10, window: noWindow() });
    outbox.awaiting.enter(5);
    outbox.awaiting.openBatch(2);
    outbox.awaiting.enter(6);
    outbox.awaiting.openBatch(3);
    const five = outbox.enqueue(event(5, ['a']));
    void outbox.enqueue(event(6, ['b']));
    expect(outbox.awaiting.handedOverThrough()).toBe(0);
    await tick();
    s.release();
    await five;
    await tick();
    expect(outbox.awaiting.handedOverThrough()).toBe(2);
  });

  it("counts each delivery on its way to its account's places from before its start call", async () => {
    const s = heldScheduler();
    const window = noWindow();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 10, window });
    void outbox.enqueue(event(8, ['a', 'b']));
    await tick();
    expect([window.waitingOf('acct'), s.started.length]).toEqual([2, 0]);
  });

  it("sends no start in the ingest's own turn: its answer is written first", async () => {
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 10, window: noWindow() });
    void outbox.enqueue(event(7, ['a']));
    await Promise.resolve();
    expect(s.maxInFlight()).toBe(0);
    await tick();
    expect(s.maxInFlight()).toBe(1);
  });

  it('an event with no matching endpoint never holds handedOverThrough back', () => {
    const outbox = new DeliveryOutbox(heldScheduler().scheduler, logger, { startConcurrency: 10, window: noWindow() });
    outbox.awaiting.enter(9);
    outbox.awaiting.openBatch(2);
    void outbox.enqueue(event(9, []));
    expect(outbox.awaiting.handedOverThrough()).toBe(1);
    expect(outbox.backlog).toBe(0);
  });

  it('an insert that certainly failed releases its batch', () => {
    const outbox = new DeliveryOutbox(heldScheduler().scheduler, logger, { startConcurrency: 10, window: noWindow() });
    outbox.awaiting.enter(3);
    outbox.awaiting.openBatch(2);
    expect(outbox.awaiting.handedOverThrough()).toBe(0);
    outbox.awaiting.leave(3);
    expect(outbox.awaiting.handedOverThrough()).toBe(1);
  });

  it('tells how long its oldest event has waited for its workflows to start', () => {
    let now = 1_000;
    const outbox = new DeliveryOutbox(heldScheduler().scheduler, logger, { startConcurrency: 10, window: noWindow() }, () => now);
    expect(outbox.oldestWaitMs()).toBe(0);
    outbox.awaiting.enter(1);
    now = 1_500;
    outbox.awaiting.enter(2);
    now = 4_000;
    expect(outbox.oldestWaitMs()).toBe(3_000);
    outbox.awaiting.leave(1);
    expect(outbox.oldestWaitMs()).toBe(2_500);
    outbox.awaiting.leave(2);
    expect(outbox.oldestWaitMs()).toBe(0);
  });

  /** Claims and enqueues `count` events, each with one endpoint, on an outbox that starts one workflow at a time. */
  function burst(count: number, clock: () => number) {
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 1, window: noWindow() }, clock);
    for (let id = 1; id <= count; id++) outbox.awaiting.enter(id);
    for (let id = 1; id <= count; id++) void outbox.enqueue(event(id, [`ep_${id}`]));
    const handOverOne = async () => {
      await tick();
      s.release();
      await tick();
    };
    return { outbox, handOverOne };
  }

  it('predicts no wait from the first hand-overs of a burst on an idle process (the oldest event\'s age decides then)', async () => {
    let now = 10_000;
    const { outbox, handOverOne } = burst(30, () => now);
    now += 100;
    await handOverOne();
    expect(outbox.backlog).toBe(29);
    expect(outbox.accountExpectedWaitMs('acct')).toBe(0);
  });

  it("predicts the wait of an account's new event from the rate starts moved while there was work", async () => {
    let now = 10_000;
    const { outbox, handOverOne } = burst(30, () => now);
    for (let i = 0; i < 10; i++) {
      now += 100;
      await handOverOne();
    }
    // 10 started in 1 s of busy time; 20 not handed over, of which 19 wait their turn (one is being
    // started): a new one would wait 1.9 s.
    expect(outbox.backlog).toBe(20);
    expect(outbox.accountExpectedWaitMs('acct')).toBe(1_900);
  });

  it('starts a large fan-out in batches of the start concurrency, every endpoint once', async () => {
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 4, window: noWindow() });
    const endpoints = Array.from({ length: 50 }, (_, i) => `ep_${i}`);
    const done = outbox.enqueue(event(1, endpoints));
    while (s.started.length < 50) {
      await tick();
      s.release();
    }
    await done;
    expect(s.maxInFlight()).toBe(4);
    expect(s.started.map((d) => d.endpointId).sort()).toEqual([...endpoints].sort());
    expect(await outbox.drain(1000)).toBe(true);
  });
});

describe('DeliveryOutbox between accounts', () => {
  const logger = createLogger('silent');

  /** Enqueues events on an outbox that starts one workflow at a time, and says in which order their accounts were started. */
  async function order(events: EventDoc[], options: { cannotMove?: (accountId: string) => boolean } = {}) {
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 1, window: noWindow(), ...options });
    for (const e of events) void outbox.enqueue(e);
    const startAll = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await tick();
        s.release();
        await tick();
      }
    };
    return { outbox, startAll, accounts: () => s.started.map((d) => d.accountId) };
  }

  it('starts the accounts in turn, so an account behind a flood waits one turn, not the flood', async () => {
    const flood = Array.from({ length: 20 }, (_, i) => event(i + 1, ['ep_f'], 'flood'));
    const { startAll, accounts } = await order([...flood, event(21, ['ep_q'], 'quiet')]);
    await startAll(3);
    expect(accounts()).toEqual(['flood', 'quiet', 'flood']);
  });

  it("tells how long an account's oldest start not yet made has waited, under way or queued, apart from the others'", async () => {
    let now = 1_000;
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 1, window: noWindow() }, () => now);
    void outbox.enqueue(event(1, ['ep_1', 'ep_2', 'ep_3'], 'flood'));
    await tick();
    now = 4_000;
    void outbox.enqueue(event(2, ['ep_q'], 'quiet'));
    expect([outbox.accountWaitMs('flood'), outbox.accountWaitMs('quiet'), outbox.accountWaitMs('other')]).toEqual([3_000, 0, 0]);
  });

  it('passes over an account whose deliveries cannot move, and starts it once poked', async () => {
    let blocked = true;
    const { outbox, startAll, accounts } = await order([event(1, ['ep_b'], 'blocked'), event(2, ['ep_f'], 'free')], {
      cannotMove: (accountId) => blocked && accountId === 'blocked',
    });
    await startAll(2);
    expect(accounts()).toEqual(['free']);
    blocked = false;
    outbox.poke();
    await startAll(1);
    expect(accounts()).toEqual(['free', 'blocked']);
  });

  it('starts every account on a drain, movable or not', async () => {
    const { outbox, startAll, accounts } = await order([event(1, ['ep_b'], 'blocked')], { cannotMove: () => true });
    const drained = outbox.drain(60_000);
    await startAll(1);
    expect(accounts()).toEqual(['blocked']);
    expect(await drained).toBe(true);
  });

  it('tells which accounts hold at least an equal share of the starts not yet made, those under way included', async () => {
    const { outbox, startAll } = await order([event(1, ['ep_1', 'ep_2', 'ep_3'], 'flood'), event(2, ['ep_q'], 'quiet')]);
    await startAll(1);
    expect([outbox.holdsShareOfBacklog('flood'), outbox.holdsShareOfBacklog('quiet'), outbox.holdsShareOfBacklog('idle')]).toEqual([true, false, false]);
  });

  it('puts an account that took most of the deliveries at or above its share, and a light one below', () => {
    const outbox = new DeliveryOutbox(heldScheduler().scheduler, logger, { startConcurrency: 1, window: noWindow() });
    void outbox.enqueue(event(1, Array.from({ length: 10 }, (_, i) => `ep_${i}`), 'flood'));
    void outbox.enqueue(event(2, ['ep_q'], 'quiet'));
    expect([outbox.atOrAboveShare('flood'), outbox.atOrAboveShare('quiet')]).toEqual([true, false]);
  });
});

describe('DeliveryOutbox and an event whose idempotency key is not settled yet', () => {
  const logger = createLogger('silent');

  it('keeps the event pending until its key is settled, then starts its workflows', async () => {
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 4, window: noWindow() });
    outbox.awaiting.enter(7);
    outbox.awaiting.openBatch(2);
    let answer!: (owns: boolean) => void;
    outbox.enqueueOnceSettled(event(7, ['ep_a']), () => new Promise<boolean>((r) => (answer = r)));
    expect(outbox.awaiting.handedOverThrough()).toBe(0);
    expect(await outbox.drain(50)).toBe(false);
    while (!answer) await tick();
    answer(true);
    while (s.started.length < 1) {
      await tick();
      s.release();
    }
    expect(await outbox.drain(1000)).toBe(true);
    expect(outbox.awaiting.handedOverThrough()).toBe(1);
  });

  it('asks again after a settlement fails, and forgets an event removed for losing its key', async () => {
    const s = heldScheduler();
    const outbox = new DeliveryOutbox(s.scheduler, logger, { startConcurrency: 4, window: noWindow() });
    outbox.awaiting.enter(8);
    let asked = 0;
    outbox.enqueueOnceSettled(event(8, ['ep_a']), async () => {
      if (++asked === 1) throw new Error('store unreachable');
      outbox.awaiting.leave(8);
      return false;
    });
    expect(await outbox.drain(5_000)).toBe(true);
    expect(asked).toBe(2);
    expect(s.started).toHaveLength(0);
  });
});

describe('DeliveryOutbox with a start window', () => {
  const logger = createLogger('silent');

  it('starts no more workflows than the window admits until their first attempts begin', async () => {
    const started: ScheduledDelivery[] = [];
    const scheduler = {
      async start(d: ScheduledDelivery) {
        started.push(d);
        return 'started' as const;
      },
    } as unknown as DeliveryScheduler;
    const window = new DeliveryStartWindow(2, 60_000);
    const outbox = new DeliveryOutbox(scheduler, logger, { startConcurrency: 10, window });
    for (const id of [1, 2, 3]) {
      outbox.awaiting.enter(id);
      void outbox.enqueue(event(id, ['a']));
    }
    for (let i = 0; i < 5; i++) await tick();
    expect(started.map((d) => d.eventId)).toEqual([1, 2]);
    window.release(started[0].workflowId);
    for (let i = 0; i < 5; i++) await tick();
    expect(started.map((d) => d.eventId)).toEqual([1, 2, 3]);
    window.close();
  });

  it('a start that finds its workflow already running gives its slot back', async () => {
    const scheduler = { start: async () => 'already-exists' as const } as unknown as DeliveryScheduler;
    const window = new DeliveryStartWindow(1, 60_000);
    const outbox = new DeliveryOutbox(scheduler, logger, { startConcurrency: 10, window });
    outbox.awaiting.enter(1);
    await outbox.enqueue(event(1, ['a']));
    expect([window.occupied, window.waitingOf('acct')]).toEqual([0, 0]);
    window.close();
  });

  it('in a process without a worker, frees a slot when Temporal answers the start call', async () => {
    const { scheduler, started, release } = heldScheduler();
    const window = new DeliveryStartWindow(1, 60_000);
    const outbox = new DeliveryOutbox(scheduler, logger, { startConcurrency: 10, window, windowFreedBy: 'start-call' });
    for (const id of [1, 2]) {
      outbox.awaiting.enter(id);
      void outbox.enqueue(event(id, ['a']));
    }
    for (let i = 0; i < 5; i++) await tick();
    expect(window.occupied).toBe(1);
    release();
    for (let i = 0; i < 5; i++) await tick();
    expect(started.map((d) => d.eventId)).toEqual([1]);
    release();
    for (let i = 0; i < 5; i++) await tick();
    expect(started.map((d) => d.eventId)).toEqual([1, 2]);
    expect(window.occupied).toBe(0);
    window.close();
  });

  it('with a worker here, keeps the slot after the start call until the first attempt begins', async () => {
    const { scheduler, started, release } = heldScheduler();
    const window = new DeliveryStartWindow(1, 60_000);
    const outbox = new DeliveryOutbox(scheduler, logger, { startConcurrency: 10, window });
    for (const id of [1, 2]) {
      outbox.awaiting.enter(id);
      void outbox.enqueue(event(id, ['a']));
    }
    for (let i = 0; i < 5; i++) await tick();
    release();
    for (let i = 0; i < 5; i++) await tick();
    expect(started.map((d) => d.eventId)).toEqual([1]);
    expect(window.occupied).toBe(1);
    window.close();
  });
});

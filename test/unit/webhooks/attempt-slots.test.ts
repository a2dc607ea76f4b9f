import { AttemptSlots } from '../../../src/domain/webhooks/attempt-slots';
import { throttledRetryDelayMs } from '../../../src/domain/flow-control/throttled-turns';

const LONG = 60_000;

describe('AttemptSlots: what one account and one endpoint hold at once', () => {
  it("lets an account hold at most perAccount places; another account's attempt still enters", async () => {
    const slots = new AttemptSlots({ perAccount: 2, perEndpoint: 2 });
    await slots.enter('acct_a', 'ep_1', 0);
    await slots.enter('acct_a', 'ep_2', 0);
    expect(await slots.enter('acct_a', 'ep_3', 0)).toBeNull();
    expect(await slots.enter('acct_b', 'ep_4', 0)).toEqual(expect.any(Function));
    expect([slots.inFlight('acct_a'), slots.full('acct_a'), slots.full('acct_b')]).toEqual([2, true, false]);
  });

  it('lets an endpoint hold at most perEndpoint places; the same account reaches its other endpoints', async () => {
    const slots = new AttemptSlots({ perAccount: 4, perEndpoint: 1 });
    await slots.enter('acct_a', 'ep_1', 0);
    expect(await slots.enter('acct_a', 'ep_1', 0)).toBeNull();
    expect(await slots.enter('acct_a', 'ep_2', 0)).toEqual(expect.any(Function));
  });

  it('gives a freed place to the waiters of that account in the order they came', async () => {
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 });
    const leave = (await slots.enter('acct_a', 'ep_1', LONG))!;
    const order: string[] = [];
    const first = slots.enter('acct_a', 'ep_2', LONG).then((l) => (order.push('first'), l));
    const second = slots.enter('acct_a', 'ep_3', LONG).then((l) => (order.push('second'), l));
    leave();
    (await first)!();
    (await second)!();
    expect(order).toEqual(['first', 'second']);
    expect(slots.inFlight('acct_a')).toBe(0);
  });

  it('gives a freed place to a throttled attempt back for its turn before fresh attempts that came first', async () => {
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 });
    const leave = (await slots.enter('acct_a', 'ep_1', LONG))!;
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    slots.throttle('acct_a', 'delivery-2-ep', 1, 1);
    const order: string[] = [];
    const enter = (delivery: string) => slots.enter('acct_a', 'ep_1', LONG, delivery).then((l) => (order.push(delivery), l!()));
    const waits = [enter('delivery-fresh-ep'), enter('delivery-2-ep'), enter('delivery-1-ep')];
    leave();
    await Promise.all(waits);
    expect(order).toEqual(['delivery-1-ep', 'delivery-2-ep', 'delivery-fresh-ep']);
  });

  it('answers null to a waiter whose wait ends before a place frees', async () => {
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 });
    await slots.enter('acct_a', 'ep_1', LONG);
    await expect(slots.enter('acct_a', 'ep_1', 10)).resolves.toBeNull();
  });

  it('frees a place only once, and tells whoever listens which account has room again', async () => {
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 });
    const freed: string[] = [];
    slots.onFree((accountId) => freed.push(accountId));
    const leave = (await slots.enter('acct_a', 'ep_1', 0))!;
    leave();
    leave();
    expect([slots.inFlight('acct_a'), freed]).toEqual([0, ['acct_a']]);
  });
});

describe('AttemptSlots.throttle: a throttled attempt asks again when its turn may have come', () => {
  /** Time for the slots, moved by the test. */
  const clock = { now: 0 };
  beforeEach(() => (clock.now = 0));
  const oneSlotAccount = () => new AttemptSlots({ perAccount: 1, perEndpoint: 1 }, () => clock.now);

  /** The account's one place, taken for `ms` and freed `times` over it (taken again at once but the last time): `times` freed while full. */
  async function fullFor(slots: AttemptSlots, ms: number, times: number): Promise<void> {
    let leave = (await slots.enter('acct_a', 'ep_1', 0))!;
    for (let i = 1; i <= times; i++) {
      clock.now += ms / times;
      leave();
      if (i < times) leave = (await slots.enter('acct_a', 'ep_1', 0))!;
    }
  }

  it('expects no wait for a place while the account asks for no more places than it has, its deliveries on their way aside', async () => {
    const slots = oneSlotAccount();
    expect(slots.expectedWaitMs('acct_a', () => 1)).toBe(0);
  });

  it('does not count the deliveries on their way while the account asks for no more places than it has', () => {
    const onTheWay = jest.fn(() => 1);
    oneSlotAccount().expectedWaitMs('acct_a', onTheWay);
    expect(onTheWay).not.toHaveBeenCalled();
  });

  it('until the pace its places free is known, expects each place to free once a second', () => {
    const slots = new AttemptSlots({ perAccount: 4, perEndpoint: 4 }, () => clock.now);
    for (let i = 0; i < 8; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect(slots.expectedWaitMs('acct_a')).toBe(2_000);
  });

  it('expects a new attempt to wait for those waiting here and those on their way too', async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 2_000, 20); // 10 a second
    const leave = (await slots.enter('acct_a', 'ep_1', 0))!;
    const waiter = slots.enter('acct_a', 'ep_1', LONG, 'delivery-3-ep');
    slots.throttle('acct_a', 'delivery-4-ep', 1, 1);
    expect(slots.expectedWaitMs('acct_a', () => 2)).toBe(400); // 2 on their way, delivery-3 waiting here, -4 throttled
    leave();
    (await waiter)!();
  });

  it("expects a new attempt to wait for the account's throttled attempts, at the pace its places free", async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 2_000, 20); // 10 a second
    for (let i = 0; i < 30; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect([slots.expectedWaitMs('acct_a'), slots.expectedWaitMs('acct_b')]).toEqual([3_000, 0]);
  });

  it("expects a wait for attempts throttled at a full endpoint while the account has places free", async () => {
    const slots = new AttemptSlots({ perAccount: 4, perEndpoint: 1 }, () => clock.now);
    let leave = (await slots.enter('acct_a', 'ep_1', 0))!;
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    for (let i = 0; i < 10; i++) {
      clock.now += 100;
      leave();
      leave = (await slots.enter('acct_a', 'ep_1', 0))!;
    }
    slots.throttle('acct_a', 'delivery-2-ep', 1, 1);
    expect(slots.full('acct_a')).toBe(false);
    expect(slots.expectedWaitMs('acct_a')).toBe(200); // 2 waiting, 10 freed a second
  });

  it('waits its doubling back-off while no place of its account has freed', () => {
    const slots = oneSlotAccount();
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    expect(slots.throttle('acct_a', 'delivery-2-ep', 3, 1)).toBe(throttledRetryDelayMs(3, 1));
  });

  it("waits for the attempts throttled before it to be served, at the pace the account's places freed while all were taken", async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 20_000, 2); // one every 10 s
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    slots.throttle('acct_a', 'delivery-2-ep', 1, 1);
    expect(slots.throttle('acct_a', 'delivery-3-ep', 1, 1)).toBe(20_000);
    // Between half of it and all of it, so that they do not come back together.
    expect(slots.throttle('acct_a', 'delivery-3-ep', 1, 0)).toBe(10_000);
  });

  it("takes the pace from the time the account was full, not the whole minute: a fresh process's first burst", async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 2_000, 20); // 10 a second, in the process's first 2 s
    for (let i = 0; i < 100; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect(slots.throttle('acct_a', 'delivery-last-ep', 1, 1)).toBe(10_000);
  });

  it('does not count the time between bursts, when the account had places free', async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 1_000, 10);
    clock.now += 50_000;
    await fullFor(slots, 1_000, 10);
    for (let i = 0; i < 100; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect(slots.throttle('acct_a', 'delivery-last-ep', 1, 1)).toBe(10_000);
  });

  it('counts a place freed while attempts of the account are throttled, though its others are free', async () => {
    const slots = new AttemptSlots({ perAccount: 2, perEndpoint: 2 }, () => clock.now);
    const leaves = [(await slots.enter('acct_a', 'ep_1', 0))!, (await slots.enter('acct_a', 'ep_1', 0))!];
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    clock.now = 1_000;
    for (const leave of leaves) leave(); // two freed in the second it asked for more: 2 a second
    slots.throttle('acct_a', 'delivery-2-ep', 1, 1);
    expect(slots.throttle('acct_a', 'delivery-3-ep', 1, 1)).toBe(1_000);
  });

  it("waits only its turn, one place's time at least, not its doubling back-off, once the account's places are seen freeing", async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 2_000, 20); // 10 a second
    expect(slots.throttle('acct_a', 'delivery-1-ep', 5, 1)).toBe(100);
  });

  it('waits its back-off until the account has asked for more than it has for a second', async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 500, 50);
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    expect(slots.throttle('acct_a', 'delivery-2-ep', 2, 1)).toBe(throttledRetryDelayMs(2, 1));
  });

  it('asks again within five minutes however long the queue', async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 10_000, 1);
    for (let i = 0; i < 100; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect(slots.throttle('acct_a', 'delivery-last-ep', 1, 1)).toBe(300_000);
  });

  it('no longer counts a throttled delivery that got its place', async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 20_000, 2);
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    slots.throttle('acct_a', 'delivery-2-ep', 1, 1);
    expect(await slots.enter('acct_a', 'ep_1', 0, 'delivery-1-ep')).toEqual(expect.any(Function));
    expect(slots.throttle('acct_a', 'delivery-3-ep', 1, 1)).toBe(10_000);
  });

  it('forgets a throttled delivery that is not back 30 s after its wait', async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 20_000, 2);
    clock.now += 1_000;
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1); // due back 1 s on: its back-off, nobody ahead of it
    clock.now += 31_001;
    expect(slots.throttle('acct_a', 'delivery-2-ep', 1, 1)).toBe(throttledRetryDelayMs(1, 1));
  });

  it('does not count the time after a throttled attempt that never came back was due (cancelled)', async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 1_000, 10);
    slots.throttle('acct_a', 'delivery-gone-ep', 1, 0); // due back in 100 ms, one place's time at the pace seen; never back
    clock.now += 50_000;
    await fullFor(slots, 1_000, 10);
    for (let i = 0; i < 100; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    // 20 freed over 2.1 s asking for more (the two bursts, and the gone attempt's 100 ms): 100 ahead at 20 / 2.1 s.
    expect(slots.throttle('acct_a', 'delivery-last-ep', 1, 1)).toBe(10_500);
  });

  it("counts only the account's own throttled attempts and freed places", async () => {
    const slots = oneSlotAccount();
    await fullFor(slots, 20_000, 2);
    for (let i = 0; i < 5; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect(slots.throttle('acct_b', 'delivery-9-ep', 1, 1)).toBe(throttledRetryDelayMs(1, 1));
  });
});

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
  /** An account of one place that has freed it `times` times within the last minute. */
  async function freedTimes(slots: AttemptSlots, times: number): Promise<void> {
    for (let i = 0; i < times; i++) (await slots.enter('acct_a', 'ep_1', 0))!();
  }

  it('waits its doubling back-off while no place of its account has freed', () => {
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 }, () => 0);
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    expect(slots.throttle('acct_a', 'delivery-2-ep', 3, 1)).toBe(throttledRetryDelayMs(3, 1));
  });

  it("waits for the attempts throttled before it to be served, at the pace the account's places free", async () => {
    let now = 0;
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 }, () => now);
    await freedTimes(slots, 6); // 6 a minute: one every 10 s
    now = 1_000;
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    slots.throttle('acct_a', 'delivery-2-ep', 1, 1);
    expect(slots.throttle('acct_a', 'delivery-3-ep', 1, 1)).toBe(20_000);
    // Between half of it and all of it, so that they do not come back together.
    expect(slots.throttle('acct_a', 'delivery-3-ep', 1, 0)).toBe(10_000);
  });

  it('asks again within five minutes however long the queue', async () => {
    let now = 0;
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 }, () => now);
    await freedTimes(slots, 1);
    now = 1_000;
    for (let i = 0; i < 100; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect(slots.throttle('acct_a', 'delivery-last-ep', 1, 1)).toBe(300_000);
  });

  it('no longer counts a throttled delivery that got its place', async () => {
    let now = 0;
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 }, () => now);
    await freedTimes(slots, 6);
    now = 1_000;
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1);
    slots.throttle('acct_a', 'delivery-2-ep', 1, 1);
    expect(await slots.enter('acct_a', 'ep_1', 0, 'delivery-1-ep')).toEqual(expect.any(Function));
    expect(slots.throttle('acct_a', 'delivery-3-ep', 1, 1)).toBe(10_000);
  });

  it('forgets a throttled delivery that is not back 30 s after its wait', async () => {
    let now = 0;
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 }, () => now);
    await freedTimes(slots, 6);
    now = 1_000;
    slots.throttle('acct_a', 'delivery-1-ep', 1, 1); // due back at 2 s: its back-off, nobody ahead of it
    now = 32_001;
    expect(slots.throttle('acct_a', 'delivery-2-ep', 1, 1)).toBe(throttledRetryDelayMs(1, 1));
  });

  it("counts only the account's own throttled attempts and freed places", async () => {
    let now = 0;
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 }, () => now);
    await freedTimes(slots, 6);
    now = 1_000;
    for (let i = 0; i < 5; i++) slots.throttle('acct_a', `delivery-${i}-ep`, 1, 1);
    expect(slots.throttle('acct_b', 'delivery-9-ep', 1, 1)).toBe(throttledRetryDelayMs(1, 1));
  });
});

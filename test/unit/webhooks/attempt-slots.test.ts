import { AttemptSlots } from '../../../src/domain/webhooks/attempt-slots';

const LONG = 60_000;

describe('AttemptSlots: what one account and one endpoint hold at once', () => {
  it("lets an account hold at most perAccount places; another account's attempt still enters", async () => {
    const slots = new AttemptSlots({ perAccount: 2, perEndpoint: 2 });
    await slots.enter('acct_a', 'ep_1', LONG);
    await slots.enter('acct_a', 'ep_2', LONG);
    const third = slots.enter('acct_a', 'ep_3', LONG);
    await expect(slots.enter('acct_b', 'ep_4', LONG)).resolves.toEqual(expect.any(Function));
    expect(slots.inFlight('acct_a')).toBe(2);
    expect(await Promise.race([third, Promise.resolve('still waiting')])).toBe('still waiting');
  });

  it('lets an endpoint hold at most perEndpoint places; the same account reaches its other endpoints', async () => {
    const slots = new AttemptSlots({ perAccount: 4, perEndpoint: 1 });
    await slots.enter('acct_a', 'ep_1', LONG);
    const second = slots.enter('acct_a', 'ep_1', LONG);
    await expect(slots.enter('acct_a', 'ep_2', LONG)).resolves.toEqual(expect.any(Function));
    expect(await Promise.race([second, Promise.resolve('still waiting')])).toBe('still waiting');
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

  it('answers null to a waiter whose wait ends before a place frees, and frees a place only once', async () => {
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 });
    const leave = (await slots.enter('acct_a', 'ep_1', LONG))!;
    await expect(slots.enter('acct_a', 'ep_1', 10)).resolves.toBeNull();
    leave();
    leave();
    expect(slots.inFlight('acct_a')).toBe(0);
    await slots.enter('acct_a', 'ep_1', LONG);
    expect(slots.inFlight('acct_a')).toBe(1);
  });
});

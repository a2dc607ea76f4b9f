import { createEndpointLimiter, LATE_IN_SECOND_MS } from '../../../activities/endpoint-limiter';
import { IN_FLIGHT_LEASE_MS, RATE_WINDOW_RETENTION_MS } from '../../../src/domain/webhooks/endpoint-limits';

/** The order of an endpoint's two limits, on fake stores: a lease first, a start token last. */
describe('endpoint limiter', () => {
  const NOW = new Date('2026-11-25T12:00:07.300Z');

  function limiter(answers: { lease?: string | null; token?: boolean; releaseFails?: boolean } = {}, clock: () => Date = () => NOW) {
    const calls: string[] = [];
    const slept: number[] = [];
    const taken: unknown[][] = [];
    const acquired: unknown[][] = [];
    const l = createEndpointLimiter({
      clock,
      async sleep(ms) {
        slept.push(ms);
      },
      rateTokens: {
        async take(...args) {
          taken.push(args);
          calls.push('take');
          return answers.token ?? true;
        },
      },
      leases: {
        async acquire(...args) {
          acquired.push(args);
          calls.push('acquire');
          return answers.lease === undefined ? 'lease-1' : answers.lease;
        },
        async release(id) {
          calls.push(`release ${id}`);
          if (answers.releaseFails) throw new Error('store down');
        },
      },
    });
    return { l, calls, taken, acquired, slept };
  }

  it("takes a token of the clock's second, kept a while past it, and no lease when only the rate is limited", async () => {
    const { l, calls, taken } = limiter();
    const entered = await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null });
    expect('leave' in entered).toBe(true);
    expect(calls).toEqual(['take']);
    expect(taken).toEqual([['ep_1', 5, Math.floor(NOW.getTime() / 1000), new Date(Math.floor(NOW.getTime() / 1000) * 1000 + 1000 + RATE_WINDOW_RETENTION_MS)]]);
  });

  it('takes a lease that lapses after IN_FLIGHT_LEASE_MS when only in-flight is limited, and leaving releases it', async () => {
    const { l, calls, acquired } = limiter();
    const entered = await l.enter('ep_1', { ratePerSecond: null, maxInFlight: 2 });
    expect(acquired).toEqual([['ep_1', 2, NOW, new Date(NOW.getTime() + IN_FLIGHT_LEASE_MS)]]);
    if (!('leave' in entered)) throw new Error('refused');
    await entered.leave();
    expect(calls).toEqual(['acquire', 'release lease-1']);
  });

  it('refuses for in-flight without spending a start token', async () => {
    const { l, calls } = limiter({ lease: null });
    expect(await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: 2 })).toEqual({ refused: 'in-flight' });
    expect(calls).toEqual(['acquire']);
  });

  it('gives its lease back when the rate then refuses', async () => {
    const { l, calls } = limiter({ token: false });
    expect(await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: 2 })).toEqual({ refused: 'rate' });
    expect(calls).toEqual(['acquire', 'take', 'release lease-1']);
  });

  it('leaves a lease it cannot remove to lapse, without failing the attempt', async () => {
    const { l } = limiter({ releaseFails: true });
    const entered = await l.enter('ep_1', { ratePerSecond: null, maxInFlight: 2 });
    if (!('leave' in entered)) throw new Error('refused');
    await expect(entered.leave()).resolves.toBeUndefined();
  });

  it('leaves unused a token of a second that ended while it was taken, and takes one of the new second', async () => {
    const reads = [7_500, 8_000, 8_000, 8_100];
    const { l, taken } = limiter({}, () => new Date(reads.shift() ?? 8_100));
    expect('leave' in (await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null }))).toBe(true);
    expect(taken.map((args) => args[2])).toEqual([7, 8]);
  });

  it(`starts no POST in the last ${LATE_IN_SECOND_MS} ms of a second: it waits for the next second and takes a token of it`, async () => {
    const reads = [7_850, 8_000, 8_010];
    const { l, taken, slept } = limiter({}, () => new Date(reads.shift() ?? 8_010));
    expect('leave' in (await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null }))).toBe(true);
    expect(slept).toEqual([150]);
    expect(taken.map((args) => args[2])).toEqual([8]);
  });

  it(`leaves unused a token whose taking ran into the last ${LATE_IN_SECOND_MS} ms of its second, and takes one of the next`, async () => {
    const reads = [7_700, 7_850, 8_000, 8_020];
    const { l, taken } = limiter({}, () => new Date(reads.shift() ?? 8_020));
    expect('leave' in (await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null }))).toBe(true);
    expect(taken.map((args) => args[2])).toEqual([7, 8]);
  });

  it('waits its turn when the second ends again while its token is taken, giving its lease back', async () => {
    const reads = [0, 0, 1_000, 1_000, 2_000];
    const { l, calls } = limiter({}, () => new Date(reads.shift() ?? 2_000));
    expect(await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: 2 })).toEqual({ refused: 'rate' });
    expect(calls).toEqual(['acquire', 'take', 'take', 'release lease-1']);
  });
});

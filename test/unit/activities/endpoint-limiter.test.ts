import { createEndpointLimiter, LATE_IN_SECOND_MS } from '../../../activities/endpoint-limiter';
import { IN_FLIGHT_LEASE_MS, RATE_WINDOW_RETENTION_MS } from '../../../src/domain/webhooks/endpoint-limits';
import { throttledRetryDelayMs } from '../../../src/domain/flow-control/throttled-turns';

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
        async release(_endpointId, id) {
          calls.push(`release ${id}`);
          if (answers.releaseFails) throw new Error('store down');
        },
      },
    });
    return { l, calls, taken, acquired, slept };
  }

  it("takes a token of the clock's second, kept a while past it, and no lease when only the rate is limited", async () => {
    const { l, calls, taken } = limiter();
    const entered = await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null }, 'delivery-1-ep_1', 1, 1);
    expect('leave' in entered).toBe(true);
    expect(calls).toEqual(['take']);
    expect(taken).toEqual([['ep_1', 5, Math.floor(NOW.getTime() / 1000), new Date(Math.floor(NOW.getTime() / 1000) * 1000 + 1000 + RATE_WINDOW_RETENTION_MS)]]);
  });

  it('takes a lease that lapses after IN_FLIGHT_LEASE_MS when only in-flight is limited, and leaving releases it', async () => {
    const { l, calls, acquired } = limiter();
    const entered = await l.enter('ep_1', { ratePerSecond: null, maxInFlight: 2 }, 'delivery-1-ep_1', 1, 1);
    expect(acquired).toEqual([['ep_1', 2, NOW, new Date(NOW.getTime() + IN_FLIGHT_LEASE_MS)]]);
    if (!('leave' in entered)) throw new Error('refused');
    await entered.leave();
    expect(calls).toEqual(['acquire', 'release lease-1']);
  });

  it('refuses for in-flight without spending a start token', async () => {
    const { l, calls } = limiter({ lease: null });
    expect(await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: 2 }, 'delivery-1-ep_1', 1, 1)).toMatchObject({ refused: 'in-flight' });
    expect(calls).toEqual(['acquire']);
  });

  it('gives its lease back when the rate then refuses', async () => {
    const { l, calls } = limiter({ token: false });
    expect(await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: 2 }, 'delivery-1-ep_1', 1, 1)).toMatchObject({ refused: 'rate' });
    expect(calls).toEqual(['acquire', 'take', 'release lease-1']);
  });

  it('leaves a lease it cannot remove to lapse, without failing the attempt', async () => {
    const { l } = limiter({ releaseFails: true });
    const entered = await l.enter('ep_1', { ratePerSecond: null, maxInFlight: 2 }, 'delivery-1-ep_1', 1, 1);
    if (!('leave' in entered)) throw new Error('refused');
    await expect(entered.leave()).resolves.toBeUndefined();
  });

  it('leaves unused a token of a second that ended while it was taken, and takes one of the new second', async () => {
    const reads = [7_500, 8_000, 8_000, 8_100];
    const { l, taken } = limiter({}, () => new Date(reads.shift() ?? 8_100));
    expect('leave' in (await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null }, 'delivery-1-ep_1', 1, 1))).toBe(true);
    expect(taken.map((args) => args[2])).toEqual([7, 8]);
  });

  it(`starts no POST in the last ${LATE_IN_SECOND_MS} ms of a second: it waits for the next second and takes a token of it`, async () => {
    const reads = [7_850, 8_000, 8_010];
    const { l, taken, slept } = limiter({}, () => new Date(reads.shift() ?? 8_010));
    expect('leave' in (await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null }, 'delivery-1-ep_1', 1, 1))).toBe(true);
    expect(slept).toEqual([150]);
    expect(taken.map((args) => args[2])).toEqual([8]);
  });

  it(`leaves unused a token whose taking ran into the last ${LATE_IN_SECOND_MS} ms of its second, and takes one of the next`, async () => {
    const reads = [7_700, 7_850, 8_000, 8_020];
    const { l, taken } = limiter({}, () => new Date(reads.shift() ?? 8_020));
    expect('leave' in (await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: null }, 'delivery-1-ep_1', 1, 1))).toBe(true);
    expect(taken.map((args) => args[2])).toEqual([7, 8]);
  });

  it('waits its turn when the second ends again while its token is taken, giving its lease back', async () => {
    const reads = [0, 0, 1_000, 1_000, 2_000];
    const { l, calls } = limiter({}, () => new Date(reads.shift() ?? 2_000));
    expect(await l.enter('ep_1', { ratePerSecond: 5, maxInFlight: 2 }, 'delivery-1-ep_1', 1, 1)).toMatchObject({ refused: 'rate' });
    expect(calls).toEqual(['acquire', 'take', 'take', 'release lease-1']);
  });
  describe('the wait of a refused attempt: its turn among this process\'s refused ones', () => {
    it('over the rate, waits for the next second, then for those ahead of it at rate_limit_per_s', async () => {
      const { l } = limiter({ token: false }, () => new Date(7_300));
      const waits: number[] = [];
      for (let i = 0; i < 25; i++) {
        const entered = await l.enter('ep_1', { ratePerSecond: 10, maxInFlight: null }, `delivery-${i}-ep_1`, 1, 1);
        waits.push('waitMs' in entered ? entered.waitMs : NaN);
      }
      // At 7.3 s: the first come back when the next second begins, the others one turn (100 ms) apart behind them.
      expect(waits.slice(0, 10)).toEqual([700, 700, 700, 700, 700, 700, 700, 700, 800, 900]);
      expect(waits[20]).toBe(2_000);
      expect(waits[24]).toBe(2_400);
    });

    it('over the rate, asks again no later than its doubling back-off would have (a queue of 300 at 10/s drains in 30 s, not minutes)', async () => {
      const { l } = limiter({ token: false }, () => new Date(7_300));
      let last = 0;
      for (let i = 0; i < 300; i++) {
        const entered = await l.enter('ep_1', { ratePerSecond: 10, maxInFlight: null }, `delivery-${i}-ep_1`, 7, 1);
        last = 'waitMs' in entered ? entered.waitMs : NaN;
      }
      expect(last).toBe(29_900);
    });

    it('over max_in_flight, waits its doubling back-off while no POST to the endpoint has ended here', async () => {
      const { l } = limiter({ lease: null });
      expect(await l.enter('ep_1', { ratePerSecond: null, maxInFlight: 2 }, 'delivery-1-ep_1', 3, 1)).toEqual({ refused: 'in-flight', waitMs: throttledRetryDelayMs(3, 1) });
    });

    it("over max_in_flight, waits for those ahead of it at max_in_flight per the endpoint's mean POST duration", async () => {
      let now = 0;
      const lease: { next: string | null } = { next: 'lease-1' };
      const l = createEndpointLimiter({
        clock: () => new Date(now),
        rateTokens: { take: async () => true },
        leases: { acquire: async () => lease.next, release: async () => undefined },
      });
      const entered = await l.enter('ep_1', { ratePerSecond: null, maxInFlight: 2 }, 'delivery-0-ep_1', 1, 1);
      now = 100; // a POST of 100 ms: 2 places free every 100 ms, 20 a second
      if ('leave' in entered) await entered.leave();
      lease.next = null;
      const waits: number[] = [];
      for (let i = 1; i <= 41; i++) {
        const refused = await l.enter('ep_1', { ratePerSecond: null, maxInFlight: 2 }, `delivery-${i}-ep_1`, 5, 1);
        waits.push('waitMs' in refused ? refused.waitMs : NaN);
      }
      expect(waits[0]).toBe(50);
      expect(waits[40]).toBe(2_000);
    });

    it('no longer counts an attempt that got its place', async () => {
      const answers = { token: false };
      const { l } = limiter(answers, () => new Date(7_300));
      await l.enter('ep_1', { ratePerSecond: 10, maxInFlight: null }, 'delivery-1-ep_1', 1, 1);
      for (let i = 2; i <= 11; i++) await l.enter('ep_1', { ratePerSecond: 10, maxInFlight: null }, `delivery-${i}-ep_1`, 1, 1);
      answers.token = true;
      await l.enter('ep_1', { ratePerSecond: 10, maxInFlight: null }, 'delivery-1-ep_1', 1, 1);
      answers.token = false;
      // Ten wait (2 to 11); the twelfth's turn is a second after the next one begins.
      expect(await l.enter('ep_1', { ratePerSecond: 10, maxInFlight: null }, 'delivery-12-ep_1', 1, 1)).toEqual({ refused: 'rate', waitMs: 1_000 });
    });
  });
});

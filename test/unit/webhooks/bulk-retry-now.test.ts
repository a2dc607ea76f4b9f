import { systemClock } from '../../../src/domain/clock';
import { EventService, MAX_RETRY_NOW_PER_CALL } from '../../../src/services/event-service';

/** Bulk retry now: its cost per call is bounded, and a cursor goes through every waiting delivery once. */
describe('bulk retry now of an endpoint', () => {
  const waiting = Array.from({ length: 2 * MAX_RETRY_NOW_PER_CALL + 30 }, (_, i) => `delivery-${String(i).padStart(4, '0')}-ep_1`);
  /** Every tenth delivery is no longer waiting when woken. */
  const isWaiting = (id: string) => !id.endsWith('0-ep_1');

  /** `stores`: the event and endpoint stores, when a test needs others. */
  function control(stores: { events?: object; endpoints?: object } = {}) {
    const woken: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const service = new EventService({
      events: { find: async () => null },
      endpoints: { find: async (accountId: string, id: string) => (accountId === 'acct_1' && id === 'ep_1' ? ({ _id: id } as never) : null) },
      deliveries: {
        find: async () => null,
        waitingForEndpoint: async (_endpointId: string, after: string | undefined, limit: number) => waiting.filter((id) => after === undefined || id > after).slice(0, limit),
      },
      scheduler: {
        retryNow: async (id: string) => {
          mostInFlight = Math.max(mostInFlight, ++inFlight);
          await new Promise((r) => setImmediate(r));
          inFlight--;
          woken.push(id);
          return isWaiting(id) ? { attempt: 4 } : null;
        },
        cancel: async () => true,
      },
      clock: systemClock,
      ...stores,
    } as never);
    return { service, woken, mostInFlight: () => mostInFlight };
  }

  it('wakes at most MAX_RETRY_NOW_PER_CALL per call, and its cursor continues until every waiting delivery was woken once', async () => {
    const { service, woken } = control();
    const answers = [];
    let cursor: string | undefined;
    do {
      const answer = await service.retryNowForEndpoint('acct_1', 'ep_1', cursor);
      answers.push(answer);
      cursor = answer.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(answers.map((a) => a.woken + a.not_waiting)).toEqual([MAX_RETRY_NOW_PER_CALL, MAX_RETRY_NOW_PER_CALL, 30]);
    expect(answers.reduce((n, a) => n + a.woken, 0)).toBe(waiting.filter(isWaiting).length);
    expect([...woken].sort()).toEqual(waiting);
  });

  it('wakes a few deliveries at a time, not a whole page at once', async () => {
    const { service, mostInFlight } = control();
    await service.retryNowForEndpoint('acct_1', 'ep_1');
    expect(mostInFlight()).toBeGreaterThan(1);
    expect(mostInFlight()).toBeLessThanOrEqual(10);
  });

  it("answers 404 for another account's endpoint and 400 for a cursor it did not hand out", async () => {
    const { service } = control();
    await expect(service.retryNowForEndpoint('acct_2', 'ep_1')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.retryNowForEndpoint('acct_1', 'ep_1', 'not-a-cursor')).rejects.toMatchObject({ code: 'invalid_cursor' });
  });

  it("for a tenant's caller wakes only the deliveries of its tenant's events, asking the store with the tenant, and walks every page", async () => {
    const asked: unknown[] = [];
    const { service, woken } = control({
      // The deliveries' events: even ones are tenant A's.
      events: {
        ownedAmong: async (owner: unknown, ids: number[]) => {
          asked.push(owner);
          return new Set(ids.filter((id) => id % 2 === 0));
        },
      },
      endpoints: { find: async () => ({ _id: 'ep_1' }) },
    });
    const asA = { accountId: 'acct_1', tenantId: 'cus_A' };
    let total = 0;
    let cursor: string | undefined;
    do {
      const answer = await service.retryNowForEndpoint(asA, 'ep_1', cursor);
      total += answer.woken + answer.not_waiting;
      cursor = answer.next_cursor ?? undefined;
    } while (cursor !== undefined);
    const ofA = waiting.filter((id) => Number(id.split('-')[1]) % 2 === 0);
    expect([...woken].sort()).toEqual(ofA);
    expect(total).toBe(ofA.length);
    expect(asked).toEqual([asA, asA, asA]);
  });

  it("for a key's call reads no event: every waiting delivery is the account's", async () => {
    const { service, woken } = control({ events: { ownedAmong: () => Promise.reject(new Error('not to be asked')) } });
    await service.retryNowForEndpoint('acct_1', 'ep_1');
    expect(woken).toHaveLength(MAX_RETRY_NOW_PER_CALL);
  });
});

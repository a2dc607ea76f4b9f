import { randomBytes } from 'node:crypto';
import type { AttemptInput } from '../../../activities/delivery-activities';
import { createSecretBox } from '../../../src/domain/webhooks/secret-box';
import type { EndpointDoc } from '../../../src/persistence/endpoints';
import { endpointDoc } from '../../support/endpoint-doc';
import { fakeDeliveryActivities } from '../../support/fake-delivery-activities';

/**
 * An attempt to a paused endpoint sends nothing: it marks its delivery as waiting, then reads the
 * endpoint again from the store (not the cache), and only if it is still paused answers `paused`.
 * A resume clears the flag before it lists the marked deliveries, so the order is what makes a
 * resume never miss one. Fakes for the store and the sender, each logging what was done, in order.
 */
describe('delivery attempt: a paused endpoint', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 2, type: 'a.b', timestamp: 1, body: '{}', pausable: true };
  const event = { _id: 7, account_id: 'acct_1', endpoint_ids: ['ep_1'], type: 'a.b', timestamp: 1, body: '{}' };
  const paused = endpointDoc(secretBox.seal('whsec_test'), { paused: true });
  const active = endpointDoc(secretBox.seal('whsec_test'));

  /** `cached`: what the process's cache holds; `stored`: what each store read answers, in turn. */
  function activities(options: { cached?: EndpointDoc; stored: EndpointDoc[]; turnNow?: boolean }) {
    const log: string[] = [];
    const stored = [...options.stored];
    const deliveries = {
      async find() {
        return null;
      },
      async markPaused(ref: { id: string }, round: number) {
        log.push(`mark ${ref.id} r${round}`);
      },
      async recordAttempt() {
        log.push('record');
      },
      async setState(_ref: unknown, state: { status: string }) {
        log.push(`state ${state.status}`);
      },
    };
    const a = fakeDeliveryActivities({
      secretBox,
      findEndpoint: async () => {
        log.push('read store');
        return stored.length > 1 ? stored.shift()! : stored[0];
      },
      event,
      deliveries,
      onSend: () => log.push('send'),
      ...(options.turnNow !== undefined
        ? {
            fifo: {
              turnOf: async () => {
                log.push(`turn ${options.turnNow ? 'now' : 'later'}`);
                return { place: 3, now: options.turnNow as boolean };
              },
              leave: async () => undefined,
            },
          }
        : {}),
      ...(options.cached
        ? {
            enabledEndpoints: async () => {
              log.push('read cache');
              return [options.cached as EndpointDoc];
            },
          }
        : {}),
    });
    return { a, log };
  }

  it('marks the delivery, then reads the endpoint from the store, and answers paused when it still is: nothing sent or recorded', async () => {
    const { a, log } = activities({ cached: paused, stored: [paused] });
    await expect(a.attemptDelivery(input)).resolves.toMatchObject({ status: 'paused', nextDelayMs: null, statusCode: null });
    expect(log).toEqual(['read cache', 'mark delivery-7-ep_1 r1', 'read store']);
  });

  it('sends when the read after the mark finds it resumed (the cache was behind), and the attempt is recorded', async () => {
    const { a, log } = activities({ cached: paused, stored: [active] });
    await expect(a.attemptDelivery(input)).resolves.toMatchObject({ status: 'succeeded', nextDelayMs: null, statusCode: 200 });
    expect(log).toEqual(['read cache', 'mark delivery-7-ep_1 r1', 'read store', 'send', 'record']);
  });

  it('reads the store again after the mark even when the first read was the store', async () => {
    const { a, log } = activities({ stored: [paused, active] });
    await expect(a.attemptDelivery(input)).resolves.toMatchObject({ status: 'succeeded' });
    expect(log).toEqual(['read store', 'mark delivery-7-ep_1 r1', 'read store', 'send', 'record']);
  });

  it('ends the delivery cancelled when the read after the mark finds the endpoint disabled', async () => {
    const { a, log } = activities({ cached: paused, stored: [{ ...paused, disabled: true, disabled_reason: 'manual' }] });
    await expect(a.attemptDelivery(input)).resolves.toMatchObject({ status: 'cancelled', nextDelayMs: null, statusCode: null });
    expect(log).toEqual(['read cache', 'mark delivery-7-ep_1 r1', 'read store', 'state cancelled']);
  });

  it('sends to a paused endpoint for workflow code that does not wait out a pause (no `pausable`: a run of older code)', async () => {
    const { a, log } = activities({ cached: paused, stored: [paused] });
    await expect(a.attemptDelivery({ ...input, pausable: undefined })).resolves.toMatchObject({ status: 'succeeded' });
    expect(log).toEqual(['read cache', 'send', 'record']);
  });
  describe('of a FIFO endpoint, on a first attempt that waits its turn', () => {
    const first: AttemptInput = { ...input, attempt: 1, queued: true };
    const fifoPaused = { ...paused, ordering: 'fifo' as const };
    const fifoActive = { ...active, ordering: 'fifo' as const };

    it('waits its turn when the read after the mark finds the endpoint resumed and the turn has not come: nothing sent', async () => {
      const { a, log } = activities({ cached: fifoPaused, stored: [fifoActive], turnNow: false });
      await expect(a.attemptDelivery(first)).resolves.toMatchObject({ status: 'queued', nextDelayMs: null, statusCode: null });
      expect(log).toEqual(['read cache', 'mark delivery-7-ep_1 r1', 'read store', 'turn later', 'read store']);
    });

    it('sends when the read after the mark finds the endpoint resumed and its turn has come', async () => {
      const { a, log } = activities({ cached: fifoPaused, stored: [fifoActive], turnNow: true });
      await expect(a.attemptDelivery(first)).resolves.toMatchObject({ status: 'succeeded' });
      expect(log).toEqual(['read cache', 'mark delivery-7-ep_1 r1', 'read store', 'turn now', 'read store', 'send', 'record']);
    });

    it("goes on the cached endpoint when its turn has come at the run's first look (it has not waited): no store read", async () => {
      const { a, log } = activities({ cached: fifoActive, stored: [fifoPaused], turnNow: true });
      await expect(a.attemptDelivery({ ...first, acceptedAt: 1 })).resolves.toMatchObject({ status: 'succeeded' });
      expect(log).toEqual(['read cache', 'turn now', 'send', 'record']);
    });

    it('reads the endpoint from the store when its turn has come after a wait, and waits out a pause found there', async () => {
      const { a, log } = activities({ cached: fifoActive, stored: [fifoPaused, fifoPaused], turnNow: true });
      await expect(a.attemptDelivery(first)).resolves.toMatchObject({ status: 'paused', nextDelayMs: null, statusCode: null });
      expect(log).toEqual(['read cache', 'turn now', 'read store', 'mark delivery-7-ep_1 r1', 'read store']);
    });

    it('waits out a pause that came while it asked for its turn, then asks again once resumed', async () => {
      const { a, log } = activities({ cached: fifoActive, stored: [fifoPaused, fifoActive], turnNow: false });
      await expect(a.attemptDelivery(first)).resolves.toMatchObject({ status: 'queued', nextDelayMs: null, statusCode: null });
      expect(log).toEqual(['read cache', 'turn later', 'read store', 'mark delivery-7-ep_1 r1', 'read store', 'turn later', 'read store']);
    });
  });
});

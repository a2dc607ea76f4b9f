import { randomBytes } from 'node:crypto';
import { createAcceptanceSeal, type SealedDelivery } from '../../../src/domain/webhooks/acceptance-seal';

describe('acceptance seal: the platform vouches for a delivery input', () => {
  const key = randomBytes(32);
  const seal = createAcceptanceSeal(key);
  const delivery: SealedDelivery = { accountId: 'acct_1', endpointId: 'ep_1', eventId: 7, round: 1, workflowId: 'delivery-7-ep_1', type: 'order.paid', timestamp: 1_700_000_000, body: '{"id":7}' };

  it('verifies a seal it made over the same fields', () => {
    expect(seal.verify(delivery, seal.seal(delivery))).toBe(true);
  });

  it('is the same for the same fields (a restarted process verifies what another made)', () => {
    expect(createAcceptanceSeal(Buffer.from(key)).seal(delivery)).toBe(seal.seal(delivery));
  });

  it.each([
    ['account', { accountId: 'acct_2' }],
    ['endpoint', { endpointId: 'ep_2' }],
    ['event id', { eventId: 8 }],
    ['round', { round: 2 }],
    ['workflow id', { workflowId: 'forged-1' }],
    ['type', { type: 'order.refunded' }],
    ['timestamp', { timestamp: 1_700_000_001 }],
    ['body', { body: '{"id":7,"forged":true}' }],
  ])('refuses it when the %s is changed', (_field, change) => {
    expect(seal.verify({ ...delivery, ...change }, seal.seal(delivery))).toBe(false);
  });

  it.each([
    ['added', undefined, { n: 3, head: 3 }],
    ['removed', { n: 3, head: 1 }, undefined],
    ['moved to the head', { n: 3, head: 1 }, { n: 3, head: 3 }],
  ])('refuses it when its FIFO place is %s', (_change, sealedWith, given) => {
    expect(seal.verify({ ...delivery, fifoPlace: given }, seal.seal({ ...delivery, fifoPlace: sealedWith }))).toBe(false);
  });

  it('verifies a FIFO place sealed with the rest', () => {
    const placed = { ...delivery, fifoPlace: { n: 3, head: 1 } };
    expect(seal.verify(placed, seal.seal(placed))).toBe(true);
  });

  it('refuses a seal made under another secrets key', () => {
    expect(seal.verify(delivery, createAcceptanceSeal(randomBytes(32)).seal(delivery))).toBe(false);
  });

  it('cannot be fooled by fields that run into each other', () => {
    const a = { ...delivery, accountId: 'acct_1', endpointId: 'ep_12' };
    const b = { ...delivery, accountId: 'acct_1ep', endpointId: '_12' };
    expect(seal.verify(b, seal.seal(a))).toBe(false);
  });

  it.each([[''], ['v1.'], ['v2.' + 'A'.repeat(43)], ['v1.not base64!'], [undefined as unknown as string]])('refuses a malformed seal %p without throwing', (bad) => {
    expect(seal.verify(delivery, bad)).toBe(false);
  });
});

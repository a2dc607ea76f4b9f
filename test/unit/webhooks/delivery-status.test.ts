import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  EVENT_STATUSES,
  deriveEventStatus,
  isEventStatus,
  isFinishedDeliveryStatus,
  isManuallyRetryable,
} from '../../../src/domain/webhooks/delivery-status';

describe('delivery statuses', () => {
  it('are pending, retrying, succeeded, failed, cancelled', () => {
    expect(DELIVERY_STATUSES).toEqual(['pending', 'retrying', 'succeeded', 'failed', 'cancelled']);
  });

  it('are finished for succeeded, failed, cancelled only', () => {
    expect(DELIVERY_STATUSES.filter(isFinishedDeliveryStatus)).toEqual(['succeeded', 'failed', 'cancelled']);
  });

  it('can be retried manually when failed or cancelled only', () => {
    expect(DELIVERY_STATUSES.filter(isManuallyRetryable)).toEqual(['failed', 'cancelled']);
  });
});

describe('event statuses', () => {
  it('are delivered, failed, pending', () => {
    expect(EVENT_STATUSES).toEqual(['delivered', 'failed', 'pending']);
  });

  it('isEventStatus recognizes exactly the three values', () => {
    for (const status of EVENT_STATUSES) expect(isEventStatus(status)).toBe(true);
    for (const value of ['succeeded', 'Delivered', undefined]) expect(isEventStatus(value)).toBe(false);
  });
});

describe('deriveEventStatus', () => {
  it('is delivered when there are no destinations', () => {
    expect(deriveEventStatus([])).toBe('delivered');
  });

  it('is delivered when every delivery succeeded', () => {
    expect(deriveEventStatus(['succeeded', 'succeeded'])).toBe('delivered');
  });

  it('is pending while a delivery has not finished an attempt', () => {
    expect(deriveEventStatus(['pending'])).toBe('pending');
  });

  it('is pending while a delivery is retrying', () => {
    expect(deriveEventStatus(['succeeded', 'retrying'])).toBe('pending');
  });

  it('is pending while one delivery is unfinished even if another failed', () => {
    expect(deriveEventStatus(['failed', 'retrying'])).toBe('pending');
    expect(deriveEventStatus(['cancelled', 'pending'])).toBe('pending');
  });

  it('is failed when all finished and one failed', () => {
    expect(deriveEventStatus(['succeeded', 'failed'])).toBe('failed');
  });

  it('is failed when all finished and one was cancelled', () => {
    expect(deriveEventStatus(['succeeded', 'cancelled'])).toBe('failed');
  });

  it('is failed when the only delivery failed', () => {
    expect(deriveEventStatus(['failed'])).toBe('failed');
  });

  it('is failed when the only delivery was cancelled', () => {
    expect(deriveEventStatus(['cancelled'])).toBe('failed');
  });

  it('does not depend on the order of deliveries', () => {
    const all: DeliveryStatus[] = [...DELIVERY_STATUSES];
    for (const a of all) {
      for (const b of all) {
        for (const c of all) expect(deriveEventStatus([a, b, c])).toBe(deriveEventStatus([c, a, b]));
      }
    }
  });

  it('follows the contract rule for every pair of statuses', () => {
    const finished = ['succeeded', 'failed', 'cancelled'];
    for (const a of DELIVERY_STATUSES) {
      for (const b of DELIVERY_STATUSES) {
        const expected =
          a === 'succeeded' && b === 'succeeded' ? 'delivered' : finished.includes(a) && finished.includes(b) ? 'failed' : 'pending';
        expect([a, b, deriveEventStatus([a, b])]).toEqual([a, b, expected]);
      }
    }
  });

  it('imports nothing, so Temporal workflow code can use it', () => {
    const source = readFileSync(join(__dirname, '../../../src/domain/webhooks/delivery-status.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/require\(|Date\.now|Math\.random/);
  });
});

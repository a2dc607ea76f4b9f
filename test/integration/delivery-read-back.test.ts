import type { Db } from 'mongodb';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { Deliveries, type DeliveryAttempt, type DeliveryRef } from '../../src/persistence/deliveries';
import { openTestDb } from '../support/test-db';

/** A delivery read back from the real store is the delivery that was recorded, nothing more. */
describe('a delivery read back', () => {
  let close: () => Promise<void>;
  let db: Db;

  beforeEach(async () => {
    ({ db, close } = await openTestDb('delivery_read_back'));
  });
  afterEach(async () => {
    await close?.();
  });

  const at = new Date(Date.UTC(2026, 0, 1));
  const ref: DeliveryRef = { id: deliveryId(7, 'ep_1'), account_id: 'acct_read_back', event_id: 7, endpoint_id: 'ep_1' };
  const attempt: DeliveryAttempt = { round: 1, attempt: 1, started_at: at, duration_ms: 12, status_code: 200, error: null, response_body: 'ok', succeeded: true };
  const state = { round: 1, status: 'succeeded' as const, attempt_count: 1, next_attempt_at: null, url: 'https://127.0.0.1/hook' };

  it('equals the delivery as recorded, without its storage-only fields', async () => {
    const deliveries = new Deliveries(db);
    await deliveries.recordAttempt(ref, attempt, state, at);
    expect(await deliveries.find(ref.id)).toStrictEqual({
      _id: ref.id,
      account_id: ref.account_id,
      event_id: ref.event_id,
      endpoint_id: ref.endpoint_id,
      ...state,
      attempts: [attempt],
      created_at: at,
      updated_at: at,
    });
  });

  it('carries no storage-only field, even one it does not know of', async () => {
    const deliveries = new Deliveries(db);
    await deliveries.recordAttempt(ref, attempt, state, at);
    const recorded = await deliveries.find(ref.id);
    await db.collection('deliveries').updateMany({}, { $set: { stored_only: true } });
    expect(await deliveries.find(ref.id)).toStrictEqual(recorded);
  });
});

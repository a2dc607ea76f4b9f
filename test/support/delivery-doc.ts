import type { DeliveryAttempt, DeliveryDoc } from '../../src/persistence/deliveries';

/** The delivery of event 7 to `ep_1` of `acct_1` (round 1) as stored with these attempts, the last one's status, for activity tests with fake stores. */
export function deliveryDoc(attempts: DeliveryAttempt[], extra: Partial<DeliveryDoc> = {}): DeliveryDoc {
  const last = attempts[attempts.length - 1];
  return {
    _id: 'delivery-7-ep_1',
    account_id: 'acct_1',
    event_id: 7,
    endpoint_id: 'ep_1',
    url: 'https://hooks.example.com/in',
    round: 1,
    status: last?.succeeded ? 'succeeded' : 'retrying',
    attempt_count: attempts.length,
    next_attempt_at: null,
    attempts,
    created_at: new Date(0),
    updated_at: new Date(0),
    ...extra,
  };
}

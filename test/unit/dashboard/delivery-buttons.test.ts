import type { ActiveSession } from '../../../src/services/dashboard-auth-service';
import type { DeliveryView } from '../../../src/services/event-service';
import { eventDetailPage, type EventDetail } from '../../../src/transport/http/dashboard/templates/events';

/** Which buttons an event's page shows beside a delivery, by the delivery's state: only what the API would do. */
describe("the buttons beside a delivery on its event's page", () => {
  const session = { csrfToken: 'tok', account: { _id: 'acct_1', email: 'a@example.test' } } as unknown as ActiveSession;
  const delivery: DeliveryView = { endpoint_id: 'ep_1', url: 'https://hooks.example.com/in', status: 'retrying', round: 1, attempt_count: 2, next_attempt_at: null, paused: false, attempts: [] };
  const event: EventDetail = { id: 7, type: 'a.b', timestamp: 1, data: {}, idempotency_key: null, status: 'pending', destinations: 1, created_at: '1970-01-01T00:00:00.000Z', deliveries: [] };
  const buttons = (d: Partial<DeliveryView>) => {
    const page = String(eventDetailPage(session, { ...event, deliveries: [{ ...delivery, ...d }] }));
    return [...page.matchAll(/action="\/dashboard\/events\/7\/deliveries\/ep_1\/([a-z-]+)"/g)].map((m) => m[1]);
  };

  it('offers retry now and cancel while the delivery waits for its next attempt', () => {
    expect(buttons({ status: 'retrying' })).toEqual(['retry-now', 'cancel']);
  });

  it('offers only cancel while it waits for its paused endpoint (the resume wakes it) or has made no attempt yet', () => {
    expect(buttons({ status: 'retrying', paused: true })).toEqual(['cancel']);
    expect(buttons({ status: 'pending' })).toEqual(['cancel']);
  });

  it('offers only a new round once it has failed or was cancelled, and nothing once it has succeeded', () => {
    expect(buttons({ status: 'failed' })).toEqual(['retry']);
    expect(buttons({ status: 'cancelled' })).toEqual(['retry']);
    expect(buttons({ status: 'succeeded' })).toEqual([]);
  });

  it("posts each with the session's CSRF token", () => {
    const page = String(eventDetailPage(session, { ...event, deliveries: [delivery] }));
    expect(page.match(/name="_csrf" value="tok"/g)).toHaveLength(3);
  });
});

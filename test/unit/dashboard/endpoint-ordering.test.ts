import type { ActiveSession } from '../../../src/services/dashboard-auth-service';
import type { EndpointView } from '../../../src/services/endpoint-service';
import { endpointDetailPage } from '../../../src/transport/http/dashboard/templates/endpoints';

/** An endpoint's page says how its deliveries are ordered and, for a FIFO one, what waits in its queue. */
describe("the ordering on an endpoint's page", () => {
  const session = { csrfToken: 'tok', account: { _id: 'acct_1', email: 'a@example.test' } } as unknown as ActiveSession;
  const health = { succeeded_24h: 0, failed_24h: 0, last_success_at: null, last_failure_at: null, consecutive_failures: 0, failing_since: null };
  const endpoint: EndpointView = {
    id: 'ep_1',
    tenant_id: null,
    url: 'https://hooks.example.com/in',
    destination: null,
    events: ['*'],
    description: '',
    disabled: false,
    disabled_reason: null,
    paused: false,
    rate_limit_per_s: null,
    max_in_flight: null,
    ordering: 'unordered',
    health,
    secrets_in_grace: [],
    created_at: '1970-01-01T00:00:00.000Z',
    updated_at: '1970-01-01T00:00:00.000Z',
  };
  const ordering = (e: Partial<EndpointView>) => {
    const page = String(endpointDetailPage(session, { endpoint: { ...endpoint, ...e }, autoDisableAfterMs: 3_600_000 }));
    return page.match(/data-testid="endpoint-ordering">(.*?)<\/dd>/)?.[1];
  };

  it('says unordered for an endpoint that is not FIFO', () => {
    expect(ordering({})).toBe('Unordered');
  });

  it("shows a FIFO endpoint's queue length and links its head event", () => {
    expect(ordering({ ordering: 'fifo', fifo: { head_event_id: 42, length: 3 } })).toBe('FIFO: 3 waiting their turn, the head event <a href="/dashboard/events/42">#42</a>');
    expect(ordering({ ordering: 'fifo', fifo: { head_event_id: null, length: 0 } })).toBe('FIFO: 0 waiting their turn');
  });
});

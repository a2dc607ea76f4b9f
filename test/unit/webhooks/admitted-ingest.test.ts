import { systemClock } from '../../../src/domain/clock';
import type { NewEvent } from '../../../src/persistence/events';
import { EventService, type EventServiceDeps } from '../../../src/services/event-service';
import { IngestAdmission } from '../../../src/services/ingest-admission';

/** The service stores an ingest admission took in, on its ticket: it does not decide again, and leaves the place to whoever took it. */
const ONE_IN_FLIGHT = { min: 1, max: 1, targetMs: 250, increase: 1, decrease: 0.5, intervalMs: 1_000 };

function oneAtATime() {
  const calm = { backlog: 0, accountWaitMs: () => 0, accountExpectedWaitMs: () => 0, atOrAboveShare: () => false, holdsShareOfBacklog: () => false };
  return new IngestAdmission(calm, { sustainedP99Ms: () => 0 }, { backlogLimit: 100, maxBacklogMs: 2_000, maxLoopDelayMs: 250 }, ONE_IN_FLIGHT);
}

function service() {
  const stored: NewEvent[] = [];
  const deps = {
    events: {
      insertWithNextId: async (doc: NewEvent, bodyFor: (id: number) => string) => {
        stored.push(doc);
        return { ...doc, _id: stored.length, body: bodyFor(stored.length), owner: 'instance_1' };
      },
    },
    endpointsCache: { enabled: async () => [] },
    eventTypeSchemas: { check: async () => undefined },
    outbox: { awaiting: { ingestBegins: () => () => undefined }, enqueue: async () => undefined },
    lease: { id: 'instance_1' },
    clock: systemClock,
  } as unknown as EventServiceDeps;
  return { events: new EventService(deps), stored };
}

describe('EventService.ingest of an admitted event', () => {
  it("stores the event under the ticket's account while admission would refuse another now", async () => {
    const admission = oneAtATime();
    const { events, stored } = service();
    const ticket = admission.admit('acct_a');
    expect(() => admission.admit('acct_a').release()).toThrow(expect.objectContaining({ code: 'overloaded' }));
    const result = await events.ingest(ticket, { type: 'order.created', data: {} });
    expect(result).toMatchObject({ created: true, body: { id: 1, type: 'order.created' } });
    expect(stored.map((e) => e.account_id)).toEqual(['acct_a']);
  });

  it('leaves the place held until whoever took the ticket releases it', async () => {
    const admission = oneAtATime();
    const ticket = admission.admit('acct_a');
    await service().events.ingest(ticket, { type: 'order.created', data: {} });
    expect(() => admission.admit('acct_a').release()).toThrow(expect.objectContaining({ code: 'overloaded' }));
    ticket.release();
    expect(() => admission.admit('acct_a').release()).not.toThrow();
  });
});

import type { Deliveries } from '../src/persistence/deliveries';

export interface PausedPage {
  endpointId: string;
  /** Continues after this event; absent: from the oldest. */
  afterEventId?: number;
  limit: number;
}

export function createResumeActivities(deps: { deliveries: Pick<Deliveries, 'pausedForEndpoint'> }) {
  return {
    /** A page of the endpoint's deliveries that wait paused, oldest event first: their workflow ids and event ids. */
    async pausedDeliveries(page: PausedPage): Promise<Array<{ workflowId: string; eventId: number }>> {
      const found = await deps.deliveries.pausedForEndpoint(page.endpointId, page.afterEventId, page.limit);
      return found.map((d) => ({ workflowId: d.id, eventId: d.eventId }));
    },
  };
}

export type ResumeActivities = ReturnType<typeof createResumeActivities>;

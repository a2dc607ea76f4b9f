import type { Deliveries } from '../src/persistence/deliveries';

export function createResumeActivities(deps: { deliveries: Pick<Deliveries, 'pausedForEndpoint'> }) {
  return {
    /** A page of the endpoint's deliveries that wait paused, oldest event first, after `afterEventId` (absent: from the oldest): their workflow ids and event ids. */
    async pausedDeliveries(page: { endpointId: string; afterEventId?: number; limit: number }): Promise<Array<{ workflowId: string; eventId: number }>> {
      const found = await deps.deliveries.pausedForEndpoint(page.endpointId, page.afterEventId, page.limit);
      return found.map((d) => ({ workflowId: d.id, eventId: d.eventId }));
    },
  };
}

export type ResumeActivities = ReturnType<typeof createResumeActivities>;

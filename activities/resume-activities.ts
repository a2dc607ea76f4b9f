import type { Deliveries } from '../src/persistence/deliveries';
import type { Endpoints } from '../src/persistence/endpoints';

type Page = { endpointId: string; afterEventId?: number; limit: number };
type Waiting = Array<{ workflowId: string; eventId: number }>;

export function createResumeActivities(deps: { deliveries: Pick<Deliveries, 'pausedForEndpoint'>; endpoints: Pick<Endpoints, 'find'> }) {
  /** A page of the endpoint's deliveries that wait paused, oldest event first, after `afterEventId` (absent: from the oldest): their workflow ids and event ids. */
  const pausedDeliveries = async (page: Page): Promise<Waiting> => {
    const found = await deps.deliveries.pausedForEndpoint(page.endpointId, page.afterEventId, page.limit);
    return found.map((d) => ({ workflowId: d.id, eventId: d.eventId }));
  };
  return {
    /** The listing of runs started before the resume workflow read its endpoint with each page (workflows/resume.ts). */
    pausedDeliveries,

    /** The endpoint read first: paused again (or deleted), none is listed, as each one woken would only wait again (or end cancelled). */
    async resumePage(page: Page & { accountId: string }): Promise<{ endpointPaused: boolean; waiting: Waiting }> {
      const endpoint = await deps.endpoints.find(page.accountId, page.endpointId);
      if (!endpoint || endpoint.paused) return { endpointPaused: true, waiting: [] };
      return { endpointPaused: false, waiting: await pausedDeliveries(page) };
    },
  };
}

export type ResumeActivities = ReturnType<typeof createResumeActivities>;

import type { Clock } from '../domain/clock';
import type { Deliveries } from '../persistence/deliveries';
import type { Endpoints } from '../persistence/endpoints';
import type { ResumeScheduler } from '../temporal/resume-scheduler';
import { requireEndpoint, type EndpointView } from './endpoint-service';

export interface EndpointPauseDeps {
  endpoints: Pick<Endpoints, 'find' | 'update'>;
  deliveries: Pick<Deliveries, 'anyPausedForEndpoint'>;
  resumer: Pick<ResumeScheduler, 'start'>;
  /** The endpoint as the API shows it (EndpointService.get), read after the change. */
  view: (accountId: string, endpointId: string) => Promise<EndpointView>;
  clock: Clock;
}

/**
 * While paused, due deliveries wait: an attempt marks itself, then reads the flag again; a resume clears the flag,
 * then wakes every marked one. Whichever of the two reads second sees the other's write: none is left waiting.
 */
export class EndpointPause {
  constructor(private readonly deps: EndpointPauseDeps) {}

  /** Idempotent: a paused endpoint is answered as it is. */
  async pause(accountId: string, endpointId: string): Promise<EndpointView> {
    const current = await requireEndpoint(this.deps.endpoints, accountId, endpointId);
    if (!current.paused) await this.deps.endpoints.update(current, { paused: true }, this.deps.clock());
    return this.deps.view(accountId, endpointId);
  }

  /** Clears the flag, then starts the resume workflow, also when not paused: a resume whose start failed is repeated. */
  async resume(accountId: string, endpointId: string): Promise<EndpointView> {
    const current = await requireEndpoint(this.deps.endpoints, accountId, endpointId);
    if (current.paused) await this.deps.endpoints.update(current, { paused: false }, this.deps.clock());
    if (current.paused || (await this.deps.deliveries.anyPausedForEndpoint(endpointId))) await this.deps.resumer.start({ accountId, endpointId });
    return this.deps.view(accountId, endpointId);
  }
}

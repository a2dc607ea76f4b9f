import type { Clock } from '../domain/clock';
import { DomainError, ValidationError } from '../domain/errors';
import { MAX_RECOVERY_DELIVERIES, recoverySinceProblem } from '../domain/webhooks/recovery';
import type { Deliveries } from '../persistence/deliveries';
import type { Endpoints } from '../persistence/endpoints';
import type { RecoveryRun, RecoveryScheduler } from '../temporal/recovery-scheduler';
import { requireEndpoint } from './endpoint-service';

export interface RecoveryServiceDeps {
  endpoints: Endpoints;
  deliveries: Deliveries;
  scheduler: RecoveryScheduler;
  clock: Clock;
}

/** Failed or cancelled deliveries first attempted since `since` get a new round, as a manual retry would. */
export class RecoveryService {
  constructor(private readonly deps: RecoveryServiceDeps) {}

  async recover(accountId: string, endpointId: string, since: Date): Promise<RecoveryRun> {
    const now = this.deps.clock();
    const problem = recoverySinceProblem(since, now);
    if (problem) throw new ValidationError(problem, [{ path: 'since', message: problem.replace(/^since /, '') }], 'invalid_since');
    const endpoint = await requireEndpoint(this.deps.endpoints, accountId, endpointId);
    if (endpoint.disabled) throw new DomainError('endpoint_disabled', `Endpoint ${endpointId} is disabled; enable it before recovering its deliveries.`);
    const running = await this.deps.scheduler.running(endpointId);
    if (running) return running;
    const eventIds = await this.deps.deliveries.retryableForEndpointSince(endpointId, since, MAX_RECOVERY_DELIVERIES);
    return this.deps.scheduler.startOrJoin({ accountId, endpointId, since: since.toISOString(), eventIds }, now);
  }
}

import type { HealthSummary } from '../domain/webhooks/endpoint-health';
import { type DeliveryEnd, noticesForFailedDelivery, type NoticeRules } from '../domain/webhooks/operational-events';
import type { Endpoints } from '../persistence/endpoints';
import type { OperationalNoticeClaims } from '../persistence/operational-notice-claims';
import type { EventService } from './event-service';

export interface OperationalEventsDeps {
  endpoints: Pick<Endpoints, 'find'>;
  claims: Pick<OperationalNoticeClaims, 'claimHour'>;
  /** The internal ingest (EventService.emitPlatformEvent): stored, matched and delivered like any event. */
  emit: EventService['emitPlatformEvent'];
  rules: NoticeRules;
}

/** Every emission is keyed by what it is about, so an activity retried by Temporal emits nothing twice. */
export class OperationalEvents {
  constructor(private readonly deps: OperationalEventsDeps) {}

  /** After a failed delivery's health fact is recorded and the auto-disable rule applied; `health` is the summary after it. */
  async deliveryFailed(end: DeliveryEnd, health: HealthSummary): Promise<void> {
    const endpoint = await this.deps.endpoints.find(end.accountId, end.endpointId);
    if (!endpoint) return;
    const state = {
      url: endpoint.url,
      events: endpoint.events,
      disabled: endpoint.disabled,
      disabledReason: endpoint.disabled_reason,
      disabledAt: endpoint.updated_at,
    };
    const by = `${end.eventId}:${end.endpointId}:${end.round}`;
    for (const notice of noticesForFailedDelivery(end, state, health, this.deps.rules)) {
      if (notice.onceAnHour && !(await this.deps.claims.claimHour(notice.type, notice.onceAnHour.endpointId, notice.onceAnHour.hourStart, by))) continue;
      await this.deps.emit(end.accountId, { type: notice.type, data: notice.data, idempotency_key: notice.key });
    }
  }
}

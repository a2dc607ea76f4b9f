import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const WEBHOOK_EVENT_ID = defineSearchAttributeKey('WebhookEventId', SearchAttributeType.INT);
export const WEBHOOK_ENDPOINT_ID = defineSearchAttributeKey('WebhookEndpointId', SearchAttributeType.KEYWORD);
export const WEBHOOK_EVENT_TYPE = defineSearchAttributeKey('WebhookEventType', SearchAttributeType.KEYWORD);
export const WEBHOOK_ACCOUNT_ID = defineSearchAttributeKey('WebhookAccountId', SearchAttributeType.KEYWORD);
export const WEBHOOK_DELIVERY_STATUS = defineSearchAttributeKey('WebhookDeliveryStatus', SearchAttributeType.KEYWORD);
export const WEBHOOK_ATTEMPT_COUNT = defineSearchAttributeKey('WebhookAttemptCount', SearchAttributeType.INT);

/** Registered by the embedded dev server and docker-compose; safe in workflow code. Status also `paused` / `queued`. */
export const SEARCH_ATTRIBUTE_DEFINITIONS: Record<string, 'Int' | 'Keyword'> = Object.fromEntries(
  [WEBHOOK_EVENT_ID, WEBHOOK_ENDPOINT_ID, WEBHOOK_EVENT_TYPE, WEBHOOK_ACCOUNT_ID, WEBHOOK_DELIVERY_STATUS, WEBHOOK_ATTEMPT_COUNT].map((key) => [key.name, key.type === SearchAttributeType.INT ? 'Int' : 'Keyword']),
);

/** The attributes a delivery workflow starts with (status and attempt count are then kept current by the workflow). */
export function initialDeliverySearchAttributes(d: { eventId: number; endpointId: string; type: string; accountId: string }) {
  return [
    { key: WEBHOOK_EVENT_ID, value: d.eventId },
    { key: WEBHOOK_ENDPOINT_ID, value: d.endpointId },
    { key: WEBHOOK_EVENT_TYPE, value: d.type },
    { key: WEBHOOK_ACCOUNT_ID, value: d.accountId },
    { key: WEBHOOK_DELIVERY_STATUS, value: 'pending' },
    { key: WEBHOOK_ATTEMPT_COUNT, value: 0 },
  ] as const;
}

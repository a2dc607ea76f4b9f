/** Delivery and event statuses (CONTRACT §4); a delivery is also `cancelled` when its endpoint is deleted or disabled first. */

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Statuses after which nothing more happens unless someone starts a manual retry. */
export const FINISHED_DELIVERY_STATUSES = Object.freeze(['succeeded', 'failed', 'cancelled'] as const satisfies readonly DeliveryStatus[]);
/** Finished statuses a manual retry may restart (CONTRACT §4). */
export const RETRYABLE_DELIVERY_STATUSES: readonly DeliveryStatus[] = Object.freeze(['failed', 'cancelled']);

export const EVENT_STATUSES = ['delivered', 'failed', 'pending'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export function isEventStatus(value: unknown): value is EventStatus {
  return typeof value === 'string' && (EVENT_STATUSES as readonly string[]).includes(value);
}

export function isFinishedDeliveryStatus(status: DeliveryStatus): boolean {
  return (FINISHED_DELIVERY_STATUSES as readonly DeliveryStatus[]).includes(status);
}

/** Rounds a delivery may have: the first and up to 9 manual retries (each round keeps its history). */
export const MAX_DELIVERY_ROUNDS = 10;

export function isManuallyRetryable(status: DeliveryStatus): boolean {
  return RETRYABLE_DELIVERY_STATUSES.includes(status);
}

/** Delivered if every delivery succeeded (or there is none), pending while any is unfinished, else failed. */
export function deriveEventStatus(deliveryStatuses: readonly DeliveryStatus[]): EventStatus {
  if (!deliveryStatuses.every(isFinishedDeliveryStatus)) return 'pending';
  return deliveryStatuses.every((status) => status === 'succeeded') ? 'delivered' : 'failed';
}

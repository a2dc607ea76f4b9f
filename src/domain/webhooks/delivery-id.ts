/** Workflow id and delivery record id (CONTRACT §4). */
export function deliveryId(eventId: number, endpointId: string): string {
  return `delivery-${eventId}-${endpointId}`;
}

/** The event a delivery id (deliveryId) is of; null for anything else. */
export function eventIdOfDelivery(id: string): number | null {
  const match = /^delivery-(\d+)-/.exec(id);
  return match ? Number(match[1]) : null;
}

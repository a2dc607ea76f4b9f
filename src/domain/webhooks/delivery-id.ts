/** Workflow id and delivery record id (CONTRACT §4). */
export function deliveryId(eventId: number, endpointId: string): string {
  return `delivery-${eventId}-${endpointId}`;
}

/** Workflow id and delivery record id (CONTRACT §4). Imported by workflow code: pure. */
export function deliveryId(eventId: number, endpointId: string): string {
  return `delivery-${eventId}-${endpointId}`;
}

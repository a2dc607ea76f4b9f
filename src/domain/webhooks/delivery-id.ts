/**
 * CONTRACT §4: delivery to an endpoint is the Temporal workflow `delivery-<eventId>-<endpointId>`;
 * the delivery record has the same id. Imported by workflow code: pure.
 */
export function deliveryId(eventId: number, endpointId: string): string {
  return `delivery-${eventId}-${endpointId}`;
}

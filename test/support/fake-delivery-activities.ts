import { createDeliveryActivities, type DeliveryActivityDeps } from '../../activities/delivery-activities';
import type { Transport } from '../../activities/transport';
import type { SecretBox } from '../../src/domain/webhooks/secret-box';
import type { Deliveries } from '../../src/persistence/deliveries';
import type { EndpointDoc, Endpoints } from '../../src/persistence/endpoints';
import type { Events } from '../../src/persistence/events';
import { idleDeliveryDeps } from './delivery-deps';

export interface DeliveryFakes {
  secretBox: SecretBox;
  /** What each read of the endpoint from the store answers. */
  findEndpoint: () => Promise<EndpointDoc | null>;
  /** What reading the event answers. */
  event: object | null;
  /** The store's deliveries: only the methods the test's attempts call. */
  deliveries: object;
  /** Told each request's URL; every request is answered 200 `ok`. */
  onSend: (url: string) => void;
  enabledEndpoints?: DeliveryActivityDeps['enabledEndpoints'];
  fifo?: DeliveryActivityDeps['fifo'];
}

/** The real delivery activities over fakes of the store and the sender (the real ones: integration tests). */
export function fakeDeliveryActivities(fakes: DeliveryFakes) {
  const sender: Transport = {
    async send(req) {
      fakes.onSend(req.url);
      return { outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 5 };
    },
    async close() {},
  };
  return createDeliveryActivities({
    ...idleDeliveryDeps(),
    endpoints: { find: fakes.findEndpoint } as unknown as Endpoints,
    events: { findUnscoped: async () => fakes.event } as unknown as Events,
    deliveries: fakes.deliveries as Deliveries,
    secretBox: fakes.secretBox,
    sender,
    endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
    autoDisable: { afterMs: 1, disable: async () => undefined },
    ...(fakes.enabledEndpoints ? { enabledEndpoints: fakes.enabledEndpoints } : {}),
    ...(fakes.fifo ? { fifo: fakes.fifo } : {}),
  });
}

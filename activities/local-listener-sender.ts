import { isLocalListenerUrl, lookupLocalListener } from '../src/domain/webhooks/local-listener';
import { createHttpSender } from './http-sender';
import { failed, type Transport } from './transport';

/** Listener URLs: an agent trusting only the listener CA, read per attempt (a listener may make it later). */
export function withLocalListener(inner: Transport, options: { readCaCert: () => Promise<string | null> }): Transport {
  const senders = new Map<string, Transport>();
  return {
    async send(req) {
      if (!isLocalListenerUrl(new URL(req.url))) return inner.send(req);
      const ca = await options.readCaCert();
      if (!ca) return failed('network', 'No local listener CA in DATA_DIR: no `cli listen` has run against this platform.', 0);
      const local = senders.get(ca) ?? createHttpSender({ allowPrivateNetworks: true, lookup: lookupLocalListener, ca: [ca] });
      senders.set(ca, local);
      return local.send(req);
    },
    close: async () => {
      await Promise.all([inner.close(), ...[...senders.values()].map((s) => s.close())]);
    },
  };
}

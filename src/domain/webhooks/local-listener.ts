/**
 * The local-listener exception to the destination rules (DELIVERY_LOCAL_LISTENER, `cli listen`).
 *
 * It opens exactly one destination name: `listen.localhost` (RFC 6761 reserves `.localhost` for
 * loopback, so no public host can be meant by it). A delivery to `https://listen.localhost:<port>/`
 * connects to 127.0.0.1 and trusts only the listener CA kept in DATA_DIR, so it reaches only a
 * listener holding a certificate from that CA; every other URL, loopback literals included, keeps
 * the SSRF rules of destination-address.ts.
 */
export const LOCAL_LISTENER_HOST = 'listen.localhost';
export const LOCAL_LISTENER_ADDRESS = '127.0.0.1';

export function isLocalListenerUrl(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname === LOCAL_LISTENER_HOST;
}

/** A destination lookup that knows only the listener's name (a LookupAllFunction): nothing else can be reached through it. */
export async function lookupLocalListener(hostname: string): Promise<ReadonlyArray<{ address: string; family: number }>> {
  if (hostname === LOCAL_LISTENER_HOST) return [{ address: LOCAL_LISTENER_ADDRESS, family: 4 }];
  throw Object.assign(new Error(`${hostname} is not the local listener.`), { code: 'ENOTFOUND' });
}

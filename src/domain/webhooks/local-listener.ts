/** `cli listen`: only `listen.localhost` (RFC 6761), at 127.0.0.1 trusting only DATA_DIR's listener CA, escapes the SSRF rules. */
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

import { request } from 'undici';

/** What the developer's app answered, passed back to the platform as it is. */
export interface ForwardResult {
  status: number;
  contentType?: string;
  body: Buffer;
  /** Set when the app could not be reached (status is then 502). */
  error?: string;
}

/** Beyond this the platform has given up on the attempt anyway (its time-out is 30 s). */
const FORWARD_TIMEOUT_MS = 29_000;
/** The platform keeps 4 KiB of a response; a little more is plenty to relay. */
const MAX_RELAYED_BYTES = 64 * 1024;
/** Hop-by-hop headers (RFC 9110 §7.6.1) and the host, which belong to one connection, not to the delivery. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'expect']);

/** Exact bytes and headers (order and case kept); an unreachable app is a 502, so the platform retries. */
export async function forwardDelivery(to: URL, rawHeaders: string[], body: Buffer): Promise<ForwardResult> {
  const headers: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!NOT_FORWARDED.has((rawHeaders[i] as string).toLowerCase())) headers.push(rawHeaders[i] as string, rawHeaders[i + 1] as string);
  }
  try {
    const response = await request(to, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      if (size < MAX_RELAYED_BYTES) chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const contentType = response.headers['content-type'];
    return { status: response.statusCode, contentType: typeof contentType === 'string' ? contentType : undefined, body: Buffer.concat(chunks).subarray(0, MAX_RELAYED_BYTES) };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (e.code ?? e.cause?.code ?? e.message ?? String(err));
    const error = `${to.href} unreachable: ${why}`;
    return { status: 502, contentType: 'application/json', body: Buffer.from(JSON.stringify({ error: `cli listen: ${error}` })), error };
  }
}

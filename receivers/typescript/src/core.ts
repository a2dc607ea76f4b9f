/**
 * What both verifiers share: reading headers, decoding secrets, the checks and their order.
 * The HMAC itself is done by the caller (node:crypto in node.ts, WebCrypto in index.ts).
 * No runtime dependency and no Node-only API here, so it runs on edge runtimes too.
 */

export type Scheme = 'standard' | 'spec';

/** Which check failed. Stable strings: the same codes in the Python and Go libraries. */
export type VerificationErrorCode =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature'
  | 'header_body_mismatch'
  | 'malformed_body';

export class WebhookVerificationError extends Error {
  constructor(
    readonly code: VerificationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** The endpoint's `whsec_...` secret, or several (during a rotation): any one may match. */
  secrets: string | readonly string[];
  /**
   * `standard` (default): Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`;
   * resists replay. `spec`: `X-Webhook-Signature: sha256=<hex>` over the body only; a replay is
   * caught only by de-duplicating on the (signed) event id.
   */
  scheme?: Scheme;
  /** How far `webhook-timestamp` may be from now, either way (default 300). */
  toleranceSeconds?: number;
  /** The clock, in Unix seconds (default: the system clock). Inject it in tests. */
  now?: () => number;
  /** Check the body's `id`, `type`, `timestamp` against the headers (default true). */
  checkBody?: boolean;
}

/** The platform's delivery body. */
export interface WebhookEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
  timestamp: number;
}

export interface VerifiedWebhook {
  scheme: Scheme;
  /** The event id from the verified header (`webhook-id` or `X-Webhook-ID`). */
  id: string;
  /** The parsed body; undefined when `checkBody` is false. */
  event: WebhookEvent | undefined;
}

/**
 * `Headers` (fetch), Node's `IncomingMessage.headers`, or any plain object (names in any case): also a broker message's
 * headers, whose values may be bytes (Kafka's, UTF-8) as well as strings (RabbitMQ's; SQS attributes' `StringValue`s).
 */
export type HeadersLike = { get(name: string): string | null } | Record<string, HeaderValue | HeaderValue[] | undefined>;
type HeaderValue = string | Uint8Array;
export type RawBody = Uint8Array | ArrayBuffer | string;

/** One HMAC-SHA256 the verifier must check: does any `signatures` entry equal HMAC(key, message)? */
export interface SignatureCheck {
  key: Uint8Array;
  message: Uint8Array;
  signatures: Uint8Array[];
}

export const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';
const TIMESTAMP = /^[0-9]{1,15}$/;
const SPEC_SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const fail = (code: VerificationErrorCode, message: string): never => {
  throw new WebhookVerificationError(code, message);
};

export function headerOf(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, HeaderValue | HeaderValue[] | undefined>)) {
    if (key.toLowerCase() === lower) return Array.isArray(value) ? value.map(textOf).join(', ') : value === undefined ? undefined : textOf(value);
  }
  return undefined;
}

const textOf = (value: HeaderValue): string => (typeof value === 'string' ? value : new TextDecoder().decode(value));

export function bytesOf(body: RawBody): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('the raw body must be a Uint8Array, ArrayBuffer or string (not parsed JSON)');
}

/** Standard base64 or base64url, padding optional (secrets made before standard base64 were base64url). */
function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]*|[A-Za-z0-9_-]*)={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) return undefined;
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The standard scheme's HMAC key: the bytes after `whsec_`. */
export function standardKey(secret: string): Uint8Array {
  const key = decodeBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!key || key.length === 0) throw new TypeError('a signing secret must be whsec_ followed by base64');
  return key;
}

function secretList(options: VerifyOptions): string[] {
  const list = typeof options.secrets === 'string' ? [options.secrets] : [...options.secrets];
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) throw new TypeError('at least one non-empty secret is needed');
  return list;
}

function required(headers: HeadersLike, name: string): string {
  const value = headerOf(headers, name);
  return value === undefined ? fail('missing_header', `missing ${name} header`) : value;
}

function checkTime(timestamp: number, options: VerifyOptions, stale: boolean): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor(options.now ? options.now() : Date.now() / 1000);
  if (stale && now - timestamp > tolerance) fail('timestamp_too_old', `timestamp is more than ${tolerance} s old (a replay?)`);
  if (timestamp - now > tolerance) fail('timestamp_too_new', `timestamp is more than ${tolerance} s in the future`);
}

/** The signatures to check, after the header and timestamp checks (which throw). */
export function signatureChecks(headers: HeadersLike, body: Uint8Array, options: VerifyOptions): { scheme: Scheme; id: string; checks: SignatureCheck[] } {
  const secrets = secretList(options);
  const encoder = new TextEncoder();
  if ((options.scheme ?? 'standard') === 'spec') {
    const id = required(headers, 'X-Webhook-ID');
    required(headers, 'X-Webhook-Type');
    const timestamp = required(headers, 'X-Webhook-Timestamp');
    const signature = required(headers, 'X-Webhook-Signature');
    const hex = SPEC_SIGNATURE.exec(signature)?.[1] ?? fail('malformed_header', 'X-Webhook-Signature is not sha256=<64 lowercase hex digits>');
    if (!TIMESTAMP.test(timestamp)) fail('malformed_header', 'X-Webhook-Timestamp is not Unix seconds');
    // The event's own time, the same on every retry: only a future one is refused.
    checkTime(Number(timestamp), options, false);
    const digest = Uint8Array.from(hex.match(/../g) as string[], (h) => parseInt(h, 16));
    return { scheme: 'spec', id, checks: secrets.map((s) => ({ key: encoder.encode(s), message: body, signatures: [digest] })) };
  }
  const id = required(headers, 'webhook-id');
  const timestamp = required(headers, 'webhook-timestamp');
  const header = required(headers, 'webhook-signature');
  if (!TIMESTAMP.test(timestamp)) fail('malformed_header', 'webhook-timestamp is not Unix seconds');
  const entries = header.split(' ').filter((e) => e.length > 0);
  if (entries.length === 0 || entries.some((e) => !e.includes(','))) fail('malformed_header', 'webhook-signature is not space-separated "v1,<base64>" entries');
  checkTime(Number(timestamp), options, true);
  const signatures = entries
    .filter((e) => e.startsWith('v1,'))
    .map((e) => decodeBase64(e.slice(3)))
    .filter((s): s is Uint8Array => s !== undefined && s.length === 32);
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  return { scheme: 'standard', id, checks: secrets.map((s) => ({ key: standardKey(s), message, signatures })) };
}

export const noMatch = (): never => fail('no_matching_signature', 'no signature matches any of the secrets');

/** The headers' id, type and timestamp must be the body's (the body is what is signed). */
export function checkBody(headers: HeadersLike, body: Uint8Array, scheme: Scheme, id: string, options: VerifyOptions): VerifiedWebhook {
  if (options.checkBody === false) return { scheme, id, event: undefined };
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    fail('malformed_body', 'the body is not UTF-8 JSON');
  }
  const e = event as WebhookEvent;
  if (typeof e !== 'object' || e === null || !Number.isSafeInteger(e.id) || typeof e.type !== 'string' || !Number.isSafeInteger(e.timestamp)) {
    fail('malformed_body', 'the body is not a platform event {id, type, data, timestamp}');
  }
  const expect = (name: string, value: string) => {
    const header = headerOf(headers, name);
    if (header !== undefined && header !== value) fail('header_body_mismatch', `${name} does not match the body`);
  };
  expect(scheme === 'standard' ? 'webhook-id' : 'X-Webhook-ID', String(e.id));
  expect('X-Webhook-ID', String(e.id));
  expect('X-Webhook-Type', e.type);
  expect('X-Webhook-Timestamp', String(e.timestamp));
  return { scheme, id, event: e };
}

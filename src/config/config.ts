import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ATTEMPT_SLOT_LIMITS } from '../domain/webhooks/attempt-slots';
import { DEFAULT_AUTO_DISABLE_AFTER_MS } from '../domain/webhooks/endpoint-health';
import { DEFAULT_FAILING_AFTER } from '../domain/webhooks/operational-events';
import { IDEMPOTENCY_WINDOW_MS } from '../domain/webhooks/idempotency-window';
import { MAX_RECOVERY_WINDOW_MS } from '../domain/webhooks/recovery';
import { DEFAULT_TENANT_CAPS } from '../domain/webhooks/tenant';
import { DEFAULT_DNS_MAX_CONCURRENT, DEFAULT_DNS_TIMEOUT_MS } from '../infra/dns-lookup';
import { PROJECT_ROOT } from '../infra/tools';
import { linkBaseFault } from './link-base';
import { blankIsUnset, httpUrl, tracingConfigFrom, TracingEnvSchema } from './tracing-config';

/** The configuration, validated once at start-up (a bad value stops it, naming the variable); see docs/operating.md. */

const int = (min: number, max: number, tooLow?: string) => z.coerce.number().int().min(min, tooLow).max(max);
const port = int(1, 65535);
/** PORT may be 0: any free port (tests). */
const listenPort = int(0, 65535);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = blankIsUnset(z.string().trim().min(1));
/** Unset, or a string that passes `check`. */
const optionalWhere = (check: (value: string) => boolean, message: string) => optionalString.refine((v) => v === undefined || check(v), message);

/** What dns.Resolver#setServers takes: `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53`. */
function isNameServer(text: string): boolean {
  const match = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text) ?? /^([0-9.]+):(\d{1,5})$/.exec(text);
  const [address, port] = match ? [match[1] as string, Number(match[2])] : [text, 53];
  return isIP(address) !== 0 && port >= 1 && port <= 65535;
}

const DAY_MS = 86_400_000;
/** A day past the longest look-back reading events (bulk recovery, idempotency): a purge never outruns it. */
export const MIN_EVENT_RETENTION_DAYS = Math.ceil(Math.max(MAX_RECOVERY_WINDOW_MS, IDEMPOTENCY_WINDOW_MS) / DAY_MS) + 1;
const RETENTION_TOO_SHORT = `must be at least ${MIN_EVENT_RETENTION_DAYS} days (bulk recovery reaches 7 days back, idempotency keys 24 h)`;

const EnvSchema = z.object({
  PORT: listenPort.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('webhook-delivery'),
  TEMPORAL_SDK_LOG_LEVEL: z.enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR']).default('WARN'),
  MONGODB_URI: optionalWhere((v) => /^mongodb(\+srv)?:\/\//.test(v), 'must start with mongodb:// or mongodb+srv://'),
  MONGODB_DB: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/, 'letters, digits, _ and - only').default('platform'),

  EMBEDDED_TEMPORAL_PORT: port.default(7233),
  EMBEDDED_TEMPORAL_UI_PORT: port.default(8233),
  EMBEDDED_MONGO_PORT: port.default(27017),
  EMBEDDED_TEMPORAL_METRICS_PORT: blankIsUnset(port),

  DELIVERY_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  DELIVERY_LOCAL_LISTENER: blankIsUnset(bool),
  /** Lets NODE_ENV=production start with the settings UNSAFE_IN_PRODUCTION names (a deliberate choice, never a default). */
  ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION: bool.default(false),
  /** base64 of 32 bytes; embedded default: generated once under DATA_DIR. */
  SECRETS_ENCRYPTION_KEY: optionalWhere((v) => Buffer.from(v, 'base64').length === 32, 'must be base64 of exactly 32 bytes'),
  /** Trust X-Forwarded-For for the client IP (only behind a proxy you control). */
  TRUST_PROXY: bool.default(false),
  /** With TRUST_PROXY: how many proxies of ours append to X-Forwarded-For; the client is the entry they appended. */
  TRUST_PROXY_HOPS: int(1, 10).default(1),
  MAX_ENDPOINTS_PER_ACCOUNT: int(1, 100_000).default(100),
  MAX_ENDPOINTS_PER_TENANT: int(1, 10_000).default(DEFAULT_TENANT_CAPS.endpointsPerTenant),
  MAX_TENANTS_PER_ACCOUNT: int(1, 1_000_000).default(DEFAULT_TENANT_CAPS.tenantsPerAccount),
  DNS_SERVERS: optionalWhere((v) => v.split(',').every((s) => isNameServer(s.trim())), 'must be comma-separated ip, ip:port or [ipv6]:port'),
  DNS_TIMEOUT_MS: int(100, 60_000).default(DEFAULT_DNS_TIMEOUT_MS),
  DNS_MAX_CONCURRENT: int(1, 10_000).default(DEFAULT_DNS_MAX_CONCURRENT),
  DELIVERY_MAX_IN_FLIGHT_PER_ACCOUNT: int(1, 10_000).default(DEFAULT_ATTEMPT_SLOT_LIMITS.perAccount),
  DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT: int(1, 10_000).default(DEFAULT_ATTEMPT_SLOT_LIMITS.perEndpoint),
  /** Slow first attempts held in their task at once (more are handed off); the worker gets as many slots more. */
  DELIVERY_FIRST_ATTEMPTS_HELD_MAX: int(0, 10_000).default(600),
  DISPATCH_SWEEP_INTERVAL_MS: int(100, 3_600_000).default(5_000),
  INSTANCE_LEASE_TTL_MS: int(1_000, 600_000).default(15_000),
  /** A memory bound: accepted events waiting for their workflows to start, per API process, past which ingest answers 503. */
  INGEST_BACKLOG_LIMIT: int(1, 1_000_000).default(2_000),
  /** Overload promise: the oldest accepted event of a process waits at most this long for its workflows to start; past it, ingest answers 503. */
  MAX_BACKLOG_S: z.coerce.number().min(0.1).max(3_600).default(2),
  /** Overload: an event-loop delay (p99, sustained two seconds) past which ingest answers 503 (the process is out of CPU). */
  INGEST_MAX_LOOP_DELAY_MS: int(10, 60_000).default(400),
  DISPATCH_START_CONCURRENCY: int(1, 1_000).default(32),
  /** Delivery workflows started by a process with a worker that may wait for their first attempt (0: no limit). */
  DISPATCH_START_WINDOW: int(0, 100_000).default(200),
  /** Consecutive failed deliveries to an endpoint before its `platform.endpoint.failing` event (at most one an hour). */
  ENDPOINT_FAILING_AFTER: int(1, 1_000).default(DEFAULT_FAILING_AFTER),
  ENDPOINT_AUTO_DISABLE_HOURS: int(1, 8_760).default(DEFAULT_AUTO_DISABLE_AFTER_MS / 3_600_000),
  EVENT_RETENTION_DAYS: int(MIN_EVENT_RETENTION_DAYS, 36_500, RETENTION_TOO_SHORT).default(30),
  METRICS_PORT: blankIsUnset(listenPort),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** When set, scrapes must send `Authorization: Bearer <token>`. */
  METRICS_TOKEN: optionalWhere((v) => v.length >= 16, 'must be at least 16 characters'),
  PUBLIC_URL: blankIsUnset(httpUrl.superRefine((v, ctx) => {
    const fault = linkBaseFault(v);
    if (fault) ctx.addIssue({ code: 'custom', message: fault });
  })),
  ...TracingEnvSchema.shape,
});

export class ConfigError extends Error {
  constructor(readonly variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

export type Config = ReturnType<typeof loadConfig>;

/** Settings that open deliveries to private and loopback addresses (SSRF): refused in production without the override. */
const UNSAFE_IN_PRODUCTION = ['DELIVERY_ALLOW_PRIVATE_NETWORKS', 'DELIVERY_LOCAL_LISTENER'] as const;
const UNSAFE_OVERRIDE = 'ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION';

export const mongoUriOf = (config: Config) => config.mongo.uri ?? `mongodb://127.0.0.1:${config.mongo.embeddedPort}/`;
export const temporalAddressOf = (config: Config) => config.temporal.address ?? `127.0.0.1:${config.temporal.embeddedPort}`;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(variable, `${issue.message} (got ${JSON.stringify(env[variable] ?? null)})`);
  }
  const e = parsed.data;
  // In production every API and worker process must open the same sealed secrets: no per-host default.
  if (env.NODE_ENV === 'production' && !e.SECRETS_ENCRYPTION_KEY) {
    throw new ConfigError('SECRETS_ENCRYPTION_KEY', 'is required when NODE_ENV=production (base64 of 32 bytes, the same for every process)');
  }
  const unsafe = UNSAFE_IN_PRODUCTION.find((variable) => e[variable] === true);
  if (env.NODE_ENV === 'production' && unsafe && !e.ALLOW_UNSAFE_SETTINGS_IN_PRODUCTION) {
    throw new ConfigError(unsafe, `set to true is refused when NODE_ENV=production (it lets deliveries reach private and loopback addresses); set ${UNSAFE_OVERRIDE}=true to allow it anyway`);
  }
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(PROJECT_ROOT, e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      sdkLogLevel: e.TEMPORAL_SDK_LOG_LEVEL,
      embeddedPort: e.EMBEDDED_TEMPORAL_PORT,
      embeddedUiPort: e.EMBEDDED_TEMPORAL_UI_PORT,
      embeddedMetricsPort: e.EMBEDDED_TEMPORAL_METRICS_PORT,
    },
    mongo: { uri: e.MONGODB_URI, dbName: e.MONGODB_DB, embeddedPort: e.EMBEDDED_MONGO_PORT },
    delivery: {
      allowPrivateNetworks: e.DELIVERY_ALLOW_PRIVATE_NETWORKS,
      localListener: e.DELIVERY_LOCAL_LISTENER ?? (!e.MONGODB_URI && !e.TEMPORAL_ADDRESS && env.NODE_ENV !== 'production'),
      /** What one account and one endpoint may hold at once per worker process (src/domain/webhooks/attempt-slots.ts). */
      inFlight: { perAccount: e.DELIVERY_MAX_IN_FLIGHT_PER_ACCOUNT, perEndpoint: Math.min(e.DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT, e.DELIVERY_MAX_IN_FLIGHT_PER_ACCOUNT) },
      firstAttemptsHeldMax: e.DELIVERY_FIRST_ATTEMPTS_HELD_MAX,
    },
    secretsEncryptionKey: e.SECRETS_ENCRYPTION_KEY ? Buffer.from(e.SECRETS_ENCRYPTION_KEY, 'base64') : undefined,
    trustProxy: e.TRUST_PROXY,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    maxEndpointsPerAccount: e.MAX_ENDPOINTS_PER_ACCOUNT,
    /** src/domain/webhooks/tenant.ts. */
    tenantCaps: { endpointsPerTenant: e.MAX_ENDPOINTS_PER_TENANT, tenantsPerAccount: e.MAX_TENANTS_PER_ACCOUNT },
    dns: {
      /** undefined: the system's name servers. */
      servers: e.DNS_SERVERS?.split(',').map((s) => s.trim()),
      timeoutMs: e.DNS_TIMEOUT_MS,
      maxConcurrent: e.DNS_MAX_CONCURRENT,
    },
    dispatchSweepIntervalMs: e.DISPATCH_SWEEP_INTERVAL_MS,
    instanceLeaseTtlMs: e.INSTANCE_LEASE_TTL_MS,
    ingestBacklogLimit: e.INGEST_BACKLOG_LIMIT,
    maxBacklogMs: Math.round(e.MAX_BACKLOG_S * 1000),
    ingestMaxLoopDelayMs: e.INGEST_MAX_LOOP_DELAY_MS,
    dispatchStartConcurrency: e.DISPATCH_START_CONCURRENCY,
    dispatchStartWindow: e.DISPATCH_START_WINDOW,
    endpointAutoDisableAfterMs: e.ENDPOINT_AUTO_DISABLE_HOURS * 3_600_000,
    endpointFailingAfter: e.ENDPOINT_FAILING_AFTER,
    eventRetentionMs: e.EVENT_RETENTION_DAYS * DAY_MS,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    tracing: tracingConfigFrom(e),
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT || 3000}`).replace(/\/+$/, ''),
    /** PUBLIC_URL's origin, when set: the dashboard's only accepted Origin, and https there makes its cookies Secure (whatever the proxy says). */
    publicOrigin: e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : undefined,
  });
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import type { Product } from '../../src/domain/keys/products';
import type { Tier } from '../../src/domain/limits/tiers';
import { createLogger } from '../../src/infra/logger';
import { Platform, Roles, startPlatform } from '../../src/main/platform';

export interface TestPlatformOptions {
  roles?: Roles;
  clock?: () => Date;
  env?: Record<string, string>;
  /** Share another platform's database and task queue (e.g. a second API process, a new worker). */
  sameAs?: Platform;
  onLost?: (why: string) => void;
}

/**
 * A platform wired exactly as `npm start` wires it, against the servers of the global set-up,
 * with its own database and task queue so that test files never see each other's work.
 */
export async function startTestPlatform(options: TestPlatformOptions = {}): Promise<Platform> {
  const suffix = randomBytes(4).toString('hex');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: options.sameAs?.config.dataDir ?? mkdtempSync(path.join(process.env.TEST_DATA_DIR ?? os.tmpdir(), 'platform-')),
    MONGODB_DB: options.sameAs?.config.mongo.dbName ?? `t_${suffix}`,
    TEMPORAL_TASK_QUEUE: options.sameAs?.config.temporal.taskQueue ?? `test-${suffix}`,
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    DISPATCH_SWEEP_INTERVAL_MS: '500',
    INSTANCE_LEASE_TTL_MS: '2000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  };
  const config = loadConfig(env);
  return startPlatform(config, {
    roles: options.roles ?? { api: true, worker: true },
    clock: options.clock,
    logger: createLogger(config.logLevel),
    onLost: options.onLost,
  });
}

export async function createAccountWithKey(
  platform: Platform,
  options: { tier?: Tier; product?: Product } = {},
): Promise<{ accountId: string; key: string; keyId: string }> {
  const account = await platform.services.accounts.createAccount(`user-${randomBytes(6).toString('hex')}@example.test`, options.tier ?? 'enterprise');
  const created = await platform.services.accounts.createKey(account.id, options.product ?? 'weh', 'test key');
  return { accountId: account.id, key: created.key, keyId: created.id };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small JSON client for the platform's HTTP API. */
export function apiClient(platform: Platform, key?: string) {
  const call = async <T = any>(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> => {
    const res = await fetch(`${platform.apiUrl}${urlPath}`, {
      method,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  return {
    get: <T = any>(p: string, h?: Record<string, string>) => call<T>('GET', p, undefined, h),
    post: <T = any>(p: string, b?: unknown, h?: Record<string, string>) => call<T>('POST', p, b ?? {}, h),
    patch: <T = any>(p: string, b: unknown) => call<T>('PATCH', p, b),
    delete: <T = any>(p: string) => call<T>('DELETE', p),
    call,
  };
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Waits until `platform` has completed a poll of the cache-invalidations log that began at `from`
 * or later (by the platform's clock): every change logged before `from` has then reached its caches.
 */
export async function invalidationsReadFrom(platform: Platform, from: number): Promise<void> {
  await eventually(async () => (platform.services.invalidations.coveredSince() ?? -Infinity) >= from, 30_000, 10);
}

import { randomUUID } from 'node:crypto';
import type { ApiResponse, apiClient } from './platform';

type Api = ReturnType<typeof apiClient>;

/**
 * Sends an event as the README tells callers to: a `503 overloaded` (the platform shedding load, as it may on a busy CI
 * machine) is repeated after its Retry-After with the same Idempotency-Key, for up to `timeoutMs`. Throws unless it ends
 * in 202; answers that response. For tests about something else than admission (those check the 503 themselves).
 */
export async function sendEventAccepted(api: Api, event: { type: string; data: unknown; [field: string]: unknown }, timeoutMs = 60_000): Promise<ApiResponse> {
  const headers = { 'Idempotency-Key': randomUUID() };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.post('/api/v1/webhooks/events', event, headers);
    if (res.status === 202) return res;
    if (res.status !== 503 || Date.now() > deadline) throw new Error(`ingest answered ${res.status}: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
}

import { Client, ClientInterceptors, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';

/** Waits for the namespace (a fresh dev server may still be creating it); `native`: the worker shares the client's connection (eager starts). */
export async function connectTemporal(
  address: string,
  namespace: string,
  options: { native: boolean; timeoutMs?: number; /** Tracing's (infra/tracing): a workflow start carries the trace. */ interceptors?: ClientInterceptors },
) {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const native = options.native ? await NativeConnection.connect({ address }) : undefined;
      const connection = native ?? (await Connection.connect({ address, connectTimeout: 5_000 }));
      await connection.workflowService.describeNamespace({ namespace });
      return { client: new Client({ connection, namespace, interceptors: options.interceptors }), native, close: () => connection.close() };
    } catch (err) {
      lastError = err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`Temporal at ${address} (namespace ${namespace}) did not answer in time: ${String(lastError)}`);
}

export async function pingTemporal(client: Client): Promise<void> {
  await client.connection.workflowService.getSystemInfo({});
}

/** gRPC's status code UNAVAILABLE (the server is down or unreachable). */
const GRPC_UNAVAILABLE = 14;

/** Temporal did not answer (down, restarting, unreachable), on the error or one it wraps. */
export function isTemporalUnreachable(err: unknown): boolean {
  for (let cause = err, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    // By shape, not isGrpcServiceError: its `instanceof Error` misses errors made in another realm (the native bridge's, Jest's).
    const { code, details } = cause as { code?: unknown; details?: unknown };
    if (code === GRPC_UNAVAILABLE && typeof details === 'string') return true;
  }
  return false;
}

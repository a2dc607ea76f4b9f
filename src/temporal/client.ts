import { Client, Connection } from '@temporalio/client';

/**
 * Connects to Temporal and waits until the namespace answers: a dev server that has just
 * opened its port may still be creating its namespaces.
 */
export async function connectTemporalClient(address: string, namespace: string, timeoutMs = 60_000): Promise<Client> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 5_000 });
      await connection.workflowService.describeNamespace({ namespace });
      return new Client({ connection, namespace });
    } catch (err) {
      lastError = err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`Temporal at ${address} (namespace ${namespace}) did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}

export async function pingTemporal(client: Client): Promise<void> {
  await client.connection.workflowService.getSystemInfo({});
}

import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';

/**
 * Waits until the delivery workflow of (event, endpoint) has started (the outbox may start it
 * after the ingest answered) and closed, whatever its outcome, and returns how it closed. A
 * closed workflow makes no more attempts, so what a receiver counts after this is final: an
 * "exactly once" check counts then, instead of after a sleep that a late duplicate could outlast.
 */
export async function deliveryClosed(temporal: Pick<Client, 'workflow'>, eventId: number, endpointId: string, timeoutMs = 60_000): Promise<string> {
  const id = deliveryId(eventId, endpointId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const handle = temporal.workflow.getHandle(id);
    // result() waits for the close; a cancelled or failed workflow rejects, which is still a close.
    await handle.result().catch(() => undefined);
    try {
      const { status } = await handle.describe();
      if (status.name !== 'RUNNING') return status.name;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    if (Date.now() > deadline) throw new Error(`${id} did not close within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { defaultPayloadConverter, tsToMs } from '@temporalio/common';
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

/** A delivery run's retry timers as its history records them, with their summaries (`retry 3 after 5 s`). */
async function retryTimers(temporal: Pick<Client, 'workflow'>, workflowId: string) {
  const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.timerStartedEventAttributes)
    .map((e) => ({ summary: e.userMetadata?.summary ? String(defaultPayloadConverter.fromPayload(e.userMetadata.summary as never)) : '', ms: tsToMs(e.timerStartedEventAttributes!.startToFireTimeout) }))
    .filter((t) => t.summary.startsWith('retry '));
}

/**
 * How long a delivery run waited before each retry (ms): its retry timers as its history records
 * them, what the run asked for whatever the load on the machine that ran it.
 */
export async function retryWaits(temporal: Pick<Client, 'workflow'>, workflowId: string): Promise<number[]> {
  return (await retryTimers(temporal, workflowId)).map((t) => t.ms);
}

/** Whether the run has started its timer for the wait before attempt `attempt`: it is then waiting, and retry now can wake it. */
export async function waitsBefore(temporal: Pick<Client, 'workflow'>, workflowId: string, attempt: number): Promise<boolean> {
  return (await retryTimers(temporal, workflowId)).some((t) => t.summary.startsWith(`retry ${attempt} `));
}

/** The waits of a run's attempts on a paused endpoint (ms), as its history records their timers (`paused: attempt 3 waits for resume`). */
export async function pausedWaits(temporal: Pick<Client, 'workflow'>, workflowId: string, attempt?: number): Promise<number[]> {
  const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
  const prefix = attempt === undefined ? 'paused: ' : `paused: attempt ${attempt} `;
  return (history.events ?? [])
    .filter((e) => e.timerStartedEventAttributes && e.userMetadata?.summary && String(defaultPayloadConverter.fromPayload(e.userMetadata.summary as never)).startsWith(prefix))
    .map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
}

/** Whether the run waits, or has waited, for its endpoint's resume before attempt `attempt`. */
export async function waitsPaused(temporal: Pick<Client, 'workflow'>, workflowId: string, attempt: number): Promise<boolean> {
  return (await pausedWaits(temporal, workflowId, attempt)).length > 0;
}

/** The waits of a run's first attempt for its FIFO turn (ms), as its history records their timers (`queued: waits for its FIFO turn`). */
export async function queuedWaits(temporal: Pick<Client, 'workflow'>, workflowId: string): Promise<number[]> {
  const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.timerStartedEventAttributes && e.userMetadata?.summary && String(defaultPayloadConverter.fromPayload(e.userMetadata.summary as never)).startsWith('queued: '))
    .map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
}

/** Whether the run waits, or has waited, for its FIFO turn. */
export async function waitsQueued(temporal: Pick<Client, 'workflow'>, workflowId: string): Promise<boolean> {
  return (await queuedWaits(temporal, workflowId)).length > 0;
}

/** The values the run gave WebhookDeliveryStatus, in order (after its start's `pending`). */
export async function deliveryStatusUpserts(temporal: Pick<Client, 'workflow'>, workflowId: string): Promise<string[]> {
  const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.WebhookDeliveryStatus;
    return field ? [String(defaultPayloadConverter.fromPayload(field as never))] : [];
  });
}

/** How the run's timers ended so far: fired, or cancelled (a retry now ended the wait). */
export async function timerEnds(temporal: Pick<Client, 'workflow'>, workflowId: string): Promise<{ fired: number; canceled: number }> {
  const events = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return { fired: events.filter((e) => e.timerFiredEventAttributes).length, canceled: events.filter((e) => e.timerCanceledEventAttributes).length };
}

/**
 * The Temporal-only ceiling on this machine, in its own process: the embedded dev server
 * started exactly as `npm start` starts it, and in this process a worker and a client sharing
 * one native connection with eager starts (as `npm start` wires them). It starts
 * CEILING_WORKFLOWS trivial workflows (one no-op activity each), CEILING_CONCURRENCY at a time,
 * at most CEILING_WINDOW of them waiting for their activity to begin (the outbox's start window,
 * DISPATCH_START_WINDOW; 0: no limit), and prints one JSON line: activities executed per second
 * from the first start to the last activity.
 */
import { NativeConnection, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, startTemporalDevServer } from '../src/infra/embedded-servers';
import { initialDeliverySearchAttributes } from '../src/temporal/search-attributes';
import { loadConfig } from '../src/config/config';
import { activityStartedInterceptor, deliveryWorkerTuning, ensureRuntime, workflowBundle } from '../src/temporal/worker';
import { DELIVERY_WORKFLOW_TYPE, DeliveryScheduler } from '../src/temporal/delivery-scheduler';
import { DeliveryStartWindow } from '../src/services/delivery-start-window';

const COUNT = Number(process.env.CEILING_WORKFLOWS ?? 2000);
const CONCURRENCY = Number(process.env.CEILING_CONCURRENCY ?? 32);
/**
 * plain (the ceiling), heartbeat, attributes, local (the no-op as a local activity): see
 * ceiling-workflows.ts. delivery: the platform's own workflow, started as the outbox starts it,
 * with attempts that do nothing (what the workflow's shape costs Temporal, without the platform).
 */
const VARIANT = process.env.CEILING_VARIANT ?? 'plain';
const WINDOW = Number(process.env.CEILING_WINDOW ?? 0);
const WORKFLOW = { plain: 'ceilingWorkflow', heartbeat: 'ceilingHeartbeatWorkflow', attributes: 'ceilingAttributesWorkflow', local: 'ceilingLocalWorkflow', delivery: DELIVERY_WORKFLOW_TYPE }[VARIANT];
const DELIVERY_SHAPE = VARIANT === 'delivery';

async function main(): Promise<void> {
  ensureRuntime();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-ceiling-'));
  const port = await freePort();
  const server = await startTemporalDevServer({ dataDir, port, uiPort: await freePort() });
  try {
    // The dev server listens before its frontend answers: connect and ask until it does.
    let connection: NativeConnection | undefined;
    for (let i = 0; ; i++) {
      try {
        connection ??= await NativeConnection.connect({ address: server.address });
        await connection.workflowService.describeNamespace({ namespace: 'default' });
        break;
      } catch (err) {
        if (i > 200) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const client = new Client({ connection, namespace: 'default' });
    const scheduler = new DeliveryScheduler(client, 'ceiling', { eager: true });
    let done = 0;
    let last = 0;
    const window = new DeliveryStartWindow(WINDOW);
    const worker = await Worker.create({
      connection,
      taskQueue: 'ceiling',
      workflowBundle: DELIVERY_SHAPE
        ? await workflowBundle()
        : await bundleWorkflowCode({ workflowsPath: require.resolve('./ceiling-workflows'), logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } }),
      activities: {
        async noop() {
          done++;
          last = performance.now();
        },
        async attemptDelivery() {
          done++;
          last = performance.now();
          return { status: 'succeeded', statusCode: 200 };
        },
        async cancelDelivery() {},
      },
      ...deliveryWorkerTuning(loadConfig().delivery.firstAttemptsHeldMax, true),
      interceptors: { activity: [activityStartedInterceptor((workflowId) => window.release(workflowId))] },
    });
    await worker.runUntil(async () => {
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < COUNT) {
            const id = next++;
            await window.take({ workflowId: `ceiling-${id}`, accountId: 'acct_ceiling000000000000' });
            if (DELIVERY_SHAPE) {
              await scheduler.start(
                { workflowId: `ceiling-${id}`, eventId: id, endpointId: 'ep_ceiling0000000000000000', accountId: 'acct_ceiling000000000000', round: 1, type: 'bench.burst', timestamp: Math.floor(Date.now() / 1000), body: JSON.stringify({ id, type: 'bench.burst', timestamp: 0, data: { n: id } }), acceptedAt: Date.now(), url: 'https://127.0.0.1:4443/hook' },
                { manualRetry: false },
              );
              continue;
            }
            await client.workflow.start(WORKFLOW as string, {
              taskQueue: 'ceiling',
              workflowId: `ceiling-${id}`,
              args: [id],
              requestEagerStart: true,
              ...(VARIANT === 'attributes'
                ? {
                    typedSearchAttributes: [...initialDeliverySearchAttributes({ eventId: id, endpointId: 'ep_ceiling', type: 'ceiling.event', accountId: 'acct_ceiling' })],
                  }
                : {}),
            });
          }
        }),
      );
      while (done < COUNT) await new Promise((r) => setTimeout(r, 20));
      const seconds = (last - started) / 1000;
      process.stdout.write(`${JSON.stringify({ variant: VARIANT, workflows: COUNT, window: WINDOW, seconds, perSecond: COUNT / seconds })}\n`);
    });
    await connection.close();
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

import type { NativeConnection, Worker } from '@temporalio/worker';
import { createDeliveryActivities } from '../../activities/delivery-activities';
import { AttemptHandOffs } from '../../activities/attempt-hand-off';
import { createHttpSender } from '../../activities/http-sender';
import { withLocalListener } from '../../activities/local-listener-sender';
import { createRecoveryActivities } from '../../activities/recovery-activities';
import type { Config } from '../config/config';
import type { LookupAllFunction } from '../domain/webhooks/dns-lookup';
import type { SecretBox } from '../domain/webhooks/secret-box';
import { readLocalListenerCaCert } from '../infra/local-listener-ca';
import type { Logger } from '../infra/logger';
import { createDeliveryWorker, createHandOffWorker, handOffTaskQueue, runWorker } from '../temporal/worker';
import type { Repositories, Services } from './wiring';

export interface WorkerRoleDeps {
  config: Config;
  logger: Logger;
  connection: NativeConnection;
  repositories: Repositories;
  /** The use cases activities call: auto-disable (endpoints) and bulk recovery's rounds (events' manual retry). */
  services: Pick<Services, 'endpoints' | 'events'>;
  secretBox: SecretBox;
  dnsLookup: LookupAllFunction;
  /** Told the workflow id when an activity starts here (the outbox's start window, both roles in one process). */
  onActivityStarted?: (workflowId: string) => void;
}

export interface WorkerRole {
  worker: Worker;
  /** Drains: in-flight activities finish (or time out) before the worker stops. */
  stop(): Promise<void>;
}

/** The worker role: runs delivery and recovery workflows and their activities. */
export async function startWorkerRole({ config, logger, connection, repositories, services, secretBox, dnsLookup, onActivityStarted }: WorkerRoleDeps): Promise<WorkerRole> {
  const direct = createHttpSender({ allowPrivateNetworks: config.delivery.allowPrivateNetworks, lookup: dnsLookup });
  // The loopback exception for `cli listen` (local-listener-sender.ts), only where the flag is on.
  const sender = config.delivery.localListener ? withLocalListener(direct, { readCaCert: () => readLocalListenerCaCert(config.dataDir) }) : direct;
  const handOffs = new AttemptHandOffs(handOffTaskQueue(config.temporal.taskQueue));
  const deliveryActivities = createDeliveryActivities({
    ...repositories,
    secretBox,
    sender,
    handOffs,
    inFlight: config.delivery.inFlight,
    throttleWaitMs: config.delivery.throttleWaitMs,
    autoDisable: { afterMs: config.endpointAutoDisableAfterMs, disable: (accountId, id, decidedAt) => services.endpoints.disableForFailures(accountId, id, decidedAt) },
  });
  const worker = await createDeliveryWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: {
      ...deliveryActivities,
      ...createRecoveryActivities({ retry: (accountId, eventId, endpointId) => services.events.retry(accountId, eventId, endpointId) }),
    },
    onActivityStarted,
  });
  const handOffWorker = await createHandOffWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: handOffs.taskQueue,
    activities: { collectAttempt: deliveryActivities.collectAttempt },
  });
  const onFailure = (err: unknown) => logger.error({ err }, 'the delivery worker stopped with an error');
  const running = [runWorker(worker, onFailure), runWorker(handOffWorker, onFailure)];
  return {
    worker,
    stop: async () => {
      for (const w of [worker, handOffWorker]) if (w.getState() === 'RUNNING') w.shutdown();
      await Promise.all(running);
      // A handed-off POST still in flight is recorded before the sender closes (its workflow then
      // finds the record when it makes the attempt elsewhere).
      await handOffs.settled();
      await sender.close();
    },
  };
}

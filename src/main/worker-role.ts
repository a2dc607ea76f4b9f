import type { NativeConnection } from '@temporalio/worker';
import { createDeliveryActivities } from '../../activities/delivery-activities';
import { AttemptHandOffs } from '../../activities/attempt-hand-off';
import { AttemptHolds } from '../../activities/attempt-holds';
import { brokerPublishers, createDestinationTransports } from '../../activities/destination-transports';
import { createEndpointLimiter } from '../../activities/endpoint-limiter';
import { createHttpSender } from '../../activities/http-sender';
import { withLocalListener } from '../../activities/local-listener-sender';
import { createRecoveryActivities } from '../../activities/recovery-activities';
import { createResumeActivities } from '../../activities/resume-activities';
import type { Config } from '../config/config';
import { readLocalListenerCaCert } from '../infra/local-listener-ca';
import type { Logger } from '../infra/logger';
import type { Tracing } from '../infra/tracing/start-tracing';
import { createDeliveryWorker } from '../temporal/worker';
import { IN_FLIGHT_GRACE_MS, settlesBy } from './stop-budget';
import type { Repositories, Services } from './wiring';
import { AccountLags } from '../domain/flow-control/account-lags';
import { WorkerLoadPublisher } from '../services/lagging-accounts';

/** A first attempt's lag counts for this long in what the worker publishes: short, as admission acts on each report. */
const LAG_WINDOW_MS = 1_000;

export async function startWorkerRole({ config, logger, connection, repositories, services, eagerStarts, tracing, onLost }: {
  config: Config;
  logger: Logger;
  connection: NativeConnection;
  repositories: Repositories;
  services: Pick<Services, 'endpoints' | 'events' | 'endpointsCache' | 'scheduler' | 'attemptSlots' | 'fifo' | 'startWindow' | 'secretBox' | 'acceptanceSeal' | 'dnsLookup'>;
  /** Whether the API role in this process starts workflows eagerly on this worker. */
  eagerStarts: boolean;
  tracing?: Tracing;
  /** Told when the worker ends without stop(): it failed, or was shut down from outside. */
  onLost: () => void;
}) {
  const direct = createHttpSender({ allowPrivateNetworks: config.delivery.allowPrivateNetworks, lookup: services.dnsLookup });
  const https = config.delivery.localListener ? withLocalListener(direct, { readCaCert: () => readLocalListenerCaCert(config.dataDir) }) : direct;
  const destinationCheck = { allowPrivateNetworks: config.delivery.allowPrivateNetworks, lookup: services.dnsLookup };
  const sender = createDestinationTransports(https, brokerPublishers(destinationCheck), destinationCheck);
  const handOffs = new AttemptHandOffs((run, reported, deadline) => services.scheduler.reportOutcome(run, reported, deadline));
  const holds = new AttemptHolds(config.delivery.firstAttemptsHeldMax);
  // How late each account's first attempts are here, published for every API process's admission.
  const lags = new AccountLags(LAG_WINDOW_MS);
  // Late: waiting longer than the outbox's bound; what a late event still waits after the report leaves the promise's 5 s.
  const load = new WorkerLoadPublisher(repositories.workerLoads, lags, config.maxBacklogMs, logger);
  const deliveryActivities = createDeliveryActivities({
    ...repositories,
    holds,
    secretBox: services.secretBox,
    acceptanceSeal: services.acceptanceSeal,
    // The same cache ingest uses: an attempt does not read the endpoint an ingest just listed.
    enabledEndpoints: (accountId) => services.endpointsCache.enabled(accountId),
    sender,
    handOffs,
    slots: services.attemptSlots,
    limiter: createEndpointLimiter({ rateTokens: repositories.endpointRateTokens, leases: repositories.endpointLeases }),
    lags,
    fifo: services.fifo,
    operational: services.events,
    autoDisable: { afterMs: config.endpointAutoDisableAfterMs, disable: (accountId, id, decidedAt) => services.endpoints.disableForFailures(accountId, id, decidedAt) },
  });
  const worker = await createDeliveryWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: {
      ...deliveryActivities,
      ...createRecoveryActivities({ retry: (accountId, eventId, endpointId) => services.events.retry(accountId, eventId, endpointId) }),
      ...createResumeActivities({ deliveries: repositories.deliveries, endpoints: repositories.endpoints }),
    },
    onActivityStarted: (workflowId) => services.startWindow.release(workflowId),
    shutdownGraceMs: IN_FLIGHT_GRACE_MS,
    firstAttemptsHeld: config.delivery.firstAttemptsHeldMax,
    eagerStarts,
    tracing,
  });
  load.start();
  const running = worker.run().catch((err: unknown) => logger.error({ err }, 'the delivery worker stopped with an error'));
  let stopping = false;
  void running.then(() => {
    if (!stopping) onLost();
  });
  return {
    worker,
    /** Whether a worker still holds the Temporal connection (it stopped past the deadline): closing it would fail. */
    holdsConnection: () => worker.getState() !== 'STOPPED' && worker.getState() !== 'FAILED',
    /** Work in flight has until `deadline`; Temporal makes the rest again (a written record answers it). */
    stop: async (deadline: number): Promise<string> => {
      stopping = true;
      // Held first attempts are handed off so their tasks end now; their POSTs go on within the same grace.
      holds.stop();
      const loadRemoved = load.stop();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      // The worker's shutdownGraceTime is the same grace; a POST that ignores it must not hold the stop.
      const workersStopped = await settlesBy(running, deadline);
      // Hand-offs record their POSTs before the sender closes: a workflow retrying elsewhere finds it.
      const handOffsEnded = await settlesBy(handOffs.settled(), deadline);
      // Closing waits for the POSTs still in flight; past the deadline nobody waits for that.
      const closed = sender.close();
      if (handOffsEnded) await closed;
      else closed.catch(() => undefined);
      await settlesBy(loadRemoved, deadline);
      const left = workersStopped ? undefined : worker.getStatus();
      return (
        `Worker: stopped taking tasks; abandoned at the deadline: ${handOffsEnded ? 0 : handOffs.inFlight} handed-off POSTs, ` +
        `${left?.numInFlightLocalActivities ?? 0} first attempts, ${left?.numInFlightNonLocalActivities ?? 0} other activities. Temporal makes them again (here after the next start, or on another worker).`
      );
    },
  };
}

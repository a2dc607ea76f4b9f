import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import { roleEnv, spawnRole } from '../support/child-role';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

type HistoryEvent = NonNullable<Awaited<ReturnType<ReturnType<Platform['temporal']['workflow']['getHandle']>['fetchHistory']>>['events']>[number];

const isLocalAttemptMarker = (e: HistoryEvent) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity';
const isTaskCompleted = (e: HistoryEvent) => !!e.workflowTaskCompletedEventAttributes;
const isOutcomeReport = (e: HistoryEvent) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'attemptOutcome';
/** The hand-off's wait for its outcome (workflows/delivery.ts, COLLECT_WAIT): a timer, started with the hand-off. */
const isWaitStarted = (e: HistoryEvent) => !!e.timerStartedEventAttributes;

const TAKES_9_S = () => ({ status: 200, delayMs: 9_000 });

/** The delivery of a new event to `endpoint` once it succeeded, and its workflow history. */
async function deliveredWithHistory(platform: Platform, api: ReturnType<typeof apiClient>, endpointId: string, type: string) {
  const id = (await sendEventAccepted(api, { type, data: {} })).body.id;
  const delivery = await eventually(async () => {
    const d = (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
    return d?.status === 'succeeded' ? d : undefined;
  }, 40_000);
  // The attempt is recorded (and shown succeeded) before a handed-off one's report reaches the
  // run: read the history once the run has ended, so the report is in it.
  const handle = platform.temporal.workflow.getHandle(deliveryId(id, endpointId));
  await handle.result();
  const history = (await handle.fetchHistory()).events ?? [];
  return { delivery, history };
}

/** The first workflow task completed once, carrying the local attempt's marker (the SDK extends a task held past 80 % of its time-out by completing it early, which would put a second completion before the marker). */
function expectOneTaskBeforeMarker(history: HistoryEvent[]): void {
  const marker = history.findIndex(isLocalAttemptMarker);
  expect(marker).toBeGreaterThan(0);
  expect(history.slice(0, marker).filter(isTaskCompleted)).toHaveLength(1);
  expect(history.some((e) => !!e.workflowTaskTimedOutEventAttributes)).toBe(false);
}

/**
 * A first attempt runs inside its workflow task (a local activity). One whose receiver is slow keeps
 * that task until the receiver answers, while its worker has room for it (first-attempt-budget.ts):
 * it then costs Temporal what a fast delivery costs, one task and one completion.
 */
describe('a slow receiver on the first attempt', () => {
  const fixture = receivingPlatform();

  it('is posted to once, and its first workflow task is kept, not extended, while the receiver takes 9 s: no report, no wait, no activity', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(TAKES_9_S, { path: '/slow' });
    const { delivery, history } = await deliveredWithHistory(fixture.platform, api, endpoint.id, 'slow.one');
    expect(delivery.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
    expect(receiver.received).toHaveLength(1);
    expectOneTaskBeforeMarker(history);
    expect(history.filter(isTaskCompleted)).toHaveLength(1);
    expect(history.some(isOutcomeReport)).toBe(false);
    expect(history.some(isWaitStarted)).toBe(false);
    expect(history.some((e) => !!e.activityTaskScheduledEventAttributes)).toBe(false);
  }, 60_000);

  it('answering within the budget stays a single workflow task: no hand-off, no activity task', async () => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200, delayMs: 200 }), { path: '/quick' });
    const { history } = await deliveredWithHistory(fixture.platform, api, endpoint.id, 'quick.one');
    expect(history.some((e) => !!e.activityTaskScheduledEventAttributes)).toBe(false);
  });
});

/**
 * A worker with no room left to hold slow first attempts (here none at all) hands one off after its
 * budget (2 s): the POST goes on in the same process, which reports its outcome to the workflow by
 * an update once recorded, so the task is neither held nor extended, and no activity collects it.
 */
describe('a slow receiver on the first attempt, when its worker holds its most', () => {
  const fixture = receivingPlatform({ DELIVERY_FIRST_ATTEMPTS_HELD_MAX: '0' });

  it('is posted to once, and its workflow task ends with the hand-off; the outcome comes back as one update', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(TAKES_9_S, { path: '/handed-off' });
    const { delivery, history } = await deliveredWithHistory(fixture.platform, api, endpoint.id, 'slow.two');
    expect(delivery.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
    expect(receiver.received).toHaveLength(1);
    expectOneTaskBeforeMarker(history);
    expect(history.filter(isOutcomeReport)).toHaveLength(1);
    expect(history.some((e) => !!e.workflowExecutionSignaledEventAttributes)).toBe(false);
    expect(history.some((e) => !!e.activityTaskScheduledEventAttributes)).toBe(false);
  }, 60_000);
});

describe('a handed-off first attempt whose process dies', () => {
  const receivers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('is made again by another worker, which answers from the record when there is one and posts again when there is none', async () => {
    const platform = await startTestPlatform({ roles: { api: true, worker: false } });
    // No room to hold it: the first worker hands the attempt off.
    const env = { ...roleEnv(platform), DELIVERY_FIRST_ATTEMPTS_HELD_MAX: '0' };
    try {
      // The first POST is never answered: its process dies after handing it off.
      const receiver = await startReceiver((_req, i) => (i === 0 ? 'hang' : { status: 200 }));
      receivers.push(receiver);
      const { key } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/dies` })).body;
      const first = spawnRole('worker', env);
      await first.waitFor(/Platform ready/);
      const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
      const handle = platform.temporal.workflow.getHandle(deliveryId(id, endpoint.id));
      await eventually(async () => ((await handle.fetchHistory()).events ?? []).some(isWaitStarted) || undefined, 30_000, 100);
      await first.crash();
      const second = spawnRole('worker', env);
      try {
        await second.waitFor(/Platform ready/);
        const delivery = await eventually(async () => {
          const d = (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
          return d?.status === 'succeeded' ? d : undefined;
        }, 90_000);
        // Nobody reports (its process is gone): after the wait, the attempt is made again. The POST
        // in flight at the crash was never answered, so nothing was recorded: posted again, once.
        expect(delivery.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
        expect(receiver.received).toHaveLength(2);
      } finally {
        await second.stop();
      }
    } finally {
      await platform.stop();
    }
  }, 180_000);
});

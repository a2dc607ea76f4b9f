/**
 * `npm run record:histories [version] [scenario...]`: records delivery-workflow histories for the replay test
 * (test/workflow/replay.test.ts) as `delivery-<version>-<scenario>.json`, and resume-workflow ones (`resume-...` scenarios) as
 * `resume-<version>-<scenario>.json` (every scenario, or those named). Run it when a release
 * changes the workflow, and keep the older files: every recorded history must keep replaying. A
 * change that would break replay of running workflows must use `patched()` instead of changing the
 * old path.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { AttemptOutcome } from '../activities/delivery-activities';
import { provision } from '../src/infra/provision';
import { PROJECT_ROOT, toolPaths } from '../src/infra/tools';
import { runResumeScenario, type ResumeScenario } from '../test/support/resume-harness';
import { failUntilLast, runDeliveryScenario, startTimeSkippingEnv, type PausedAt, type QueuedAt, type RetryNowAt } from '../test/support/workflow-harness';

type Outcome = AttemptOutcome['status'];
type Scenario = {
  outcomes: (attempt: number) => Outcome;
  cancelAfterAttempt?: number;
  handOffFirst?: boolean;
  handedOffSignal?: 'outcome' | 'no-outcome' | 'never';
  retryNow?: RetryNowAt;
  paused?: PausedAt;
  queued?: QueuedAt;
  tracedBy?: string;
};
const SCENARIOS: Record<string, Scenario> = {
  'all-attempts-fail': { outcomes: failUntilLast },
  'succeeds-on-first': { outcomes: () => 'succeeded' },
  'succeeds-on-third': { outcomes: (a) => (a === 3 ? 'succeeded' : 'retrying') },
  'endpoint-deleted-on-second': { outcomes: (a) => (a === 2 ? 'cancelled' : 'retrying') },
  'cancelled-while-retrying': { outcomes: () => 'retrying', cancelAfterAttempt: 2 },
  'first-handed-off-then-succeeds-on-second': { outcomes: (a) => (a === 2 ? 'succeeded' : 'retrying'), handOffFirst: true },
  // The handed-off attempt's process never tells (it is gone), so the attempt is made again.
  'first-handed-off-never-told': { outcomes: () => 'succeeded', handOffFirst: true, handedOffSignal: 'never' },
  // Retry now during the wait before attempt 3: its timer is cancelled and attempt 3 is made at once.
  'retry-now-while-waiting': { outcomes: (a) => (a === 3 ? 'succeeded' : 'retrying'), retryNow: { during: 'wait', attempt: 3 } },
  // Attempt 2 finds its endpoint paused: the run waits, the resume signal wakes it, and attempt 2 is made again.
  'paused-then-resumed': { outcomes: (a) => (a === 2 ? 'succeeded' : 'retrying'), paused: { attempt: 2, then: 'signal' } },
  // The first attempt finds its endpoint paused, and the run is cancelled while it waits.
  'cancelled-while-paused': { outcomes: () => 'succeeded', paused: { attempt: 1, then: 'cancel' } },
  // The first attempt finds an earlier delivery to its FIFO endpoint holding the turn; the signal of that one's end wakes it.
  'queued-then-woken': { outcomes: () => 'succeeded', queued: { then: 'signal' } },
  // The first attempt waits its FIFO turn, and the run is cancelled while it waits.
  'cancelled-while-queued': { outcomes: () => 'succeeded', queued: { then: 'cancel' } },
  // Tracing on and the run sampled: its commands carry the trace context, set by the platform's workflow interceptors.
  'traced-succeeds-on-second': { outcomes: (a) => (a === 2 ? 'succeeded' : 'retrying'), tracedBy: require.resolve('../src/infra/tracing/sampled-workflow-interceptors') },
  // The same, with Temporal's OpenTelemetry workflow interceptors, which sampled runs of releases up to 2.0.0 ran.
  'traced-by-temporal-interceptors': { outcomes: (a) => (a === 2 ? 'succeeded' : 'retrying'), tracedBy: require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors') },
};

/** The endpoint's resume workflow (workflows/resume.ts); `called-while-listing` needs a workflow told of later resumes. */
const RESUME_SCENARIOS: Record<string, ResumeScenario> = {
  // Two paused deliveries and an ended one listed and woken.
  'resume-wakes-a-page': {},
  // A second resume while the first listing is in flight: the run goes on, and passes once more.
  'resume-called-while-listing': { calledWhileListing: true },
};

async function main(): Promise<void> {
  await provision({ need: { temporalCli: false, ferretDb: false, temporalTestServer: true } });
  process.env.TEMPORAL_TEST_SERVER_PATH ??= toolPaths().temporalTestServer;
  const version = process.argv[2] ?? 'v1.0.0';
  const only = process.argv.slice(3);
  const unknown = only.filter((name) => !(name in SCENARIOS) && !(name in RESUME_SCENARIOS));
  if (unknown.length > 0) throw new Error(`no such scenario: ${unknown.join(', ')} (known: ${[...Object.keys(SCENARIOS), ...Object.keys(RESUME_SCENARIOS)].join(', ')})`);
  const env = await startTimeSkippingEnv();
  try {
    for (const [name, scenario] of Object.entries(SCENARIOS).filter(([name]) => only.length === 0 || only.includes(name))) {
      const { outcomes, ...options } = scenario;
      const run = await runDeliveryScenario(env, outcomes, options);
      const history = await env.client.workflow.getHandle(run.workflowId).fetchHistory();
      await save(`delivery-${version}-${name}.json`, history);
    }
    for (const [name, scenario] of Object.entries(RESUME_SCENARIOS).filter(([name]) => only.length === 0 || only.includes(name))) {
      const run = await runResumeScenario(env, scenario);
      await save(`${name.replace(/^resume-/, `resume-${version}-`)}.json`, await env.client.workflow.getHandle(run.workflowId).fetchHistory());
    }
  } finally {
    await env.teardown();
  }
}

async function save(name: string, history: temporal.api.history.v1.IHistory): Promise<void> {
  const file = path.join(PROJECT_ROOT, 'test', 'workflow', 'histories', name);
  const json = temporal.api.history.v1.History.toObject(temporal.api.history.v1.History.fromObject(history), { longs: String, enums: String, bytes: String });
  await writeFile(file, `${JSON.stringify(json, null, 1)}\n`);
  process.stdout.write(`recorded ${path.relative(PROJECT_ROOT, file)} (${history.events?.length} events)\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { workflowBundle } from '../../src/temporal/worker';

/**
 * Determinism guard: every recorded history of the delivery workflow (one file per released
 * version and scenario, since v1.0.0) and of the resume workflow (since v1.3.0; see
 * scripts/record-histories.ts) must replay on the current code. A change that breaks this would
 * break workflows sleeping in production: use patched().
 */
const HISTORIES = path.join(__dirname, 'histories');

async function historyFiles(): Promise<string[]> {
  return (await readdir(HISTORIES)).filter((f) => f.endsWith('.json')).sort();
}

/** The recorded histories in which the run was sent the signal `name`. */
async function historiesSignalled(name: string): Promise<string[]> {
  const found: string[] = [];
  for (const file of await historyFiles()) {
    const events: Array<{ workflowExecutionSignaledEventAttributes?: { signalName?: string } }> = JSON.parse(await readFile(path.join(HISTORIES, file), 'utf8')).events;
    if (events.some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === name)) found.push(file);
  }
  return found;
}

/**
 * Replays every recorded history on `bundle`, one replay worker for all, and answers each
 * history's outcome by file name: a failure does not stop the others from being replayed.
 */
async function replayAll(bundle: WorkflowBundleWithSourceMap, files?: string[]): Promise<Array<{ file: string; error?: Error }>> {
  async function* histories() {
    for (const file of files ?? (await historyFiles())) {
      const json = JSON.parse(await readFile(path.join(HISTORIES, file), 'utf8'));
      yield { workflowId: file, history: temporal.api.history.v1.History.fromObject(json) };
    }
  }
  const results: Array<{ file: string; error?: Error }> = [];
  for await (const r of Worker.runReplayHistories({ workflowBundle: bundle }, histories())) results.push({ file: r.workflowId, error: r.error });
  return results;
}

describe('delivery workflow replay', () => {
  it('has recorded histories to replay', async () => {
    expect((await historyFiles()).length).toBeGreaterThanOrEqual(4);
  });

  it('has a recorded history in which retry now ended a wait, so the patched wake-up is replayed too', async () => {
    const woken: string[] = [];
    for (const file of await historyFiles()) {
      const events: Array<{ workflowExecutionUpdateAcceptedEventAttributes?: { acceptedRequest?: { input?: { name?: string } } } }> = JSON.parse(
        await readFile(path.join(HISTORIES, file), 'utf8'),
      ).events;
      if (events.some((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'retryNow')) woken.push(file);
    }
    expect(woken.length).toBeGreaterThan(0);
  });

  it('has a recorded history in which an attempt found its endpoint paused and the resume signal woke it', async () => {
    expect((await historiesSignalled('resume')).length).toBeGreaterThan(0);
  });

  it('has a recorded history in which a first attempt waited its FIFO turn and the turn signal woke it', async () => {
    expect((await historiesSignalled('fifoTurn')).length).toBeGreaterThan(0);
  });

  it('has a recorded resume history from before a resume was absorbed, and one in which a resume called meanwhile was', async () => {
    expect((await historyFiles()).filter((f) => f.startsWith('resume-v1.3.0-')).length).toBeGreaterThan(0);
    expect((await historiesSignalled('resumeCalled')).length).toBeGreaterThan(0);
  });

  it('rejects the resume workflow without its patch check in every resume history recorded before the patch', async () => {
    const unpatched = await bundleWorkflowCode({
      workflowsPath: require.resolve('./fixtures/resume-without-patch'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    const before = (await historyFiles()).filter((f) => f.startsWith('resume-v1.3.0-'));
    const results = await replayAll(unpatched, before);
    expect(results.map((r) => r.file)).toEqual(before);
    expect(results.filter((r) => !(r.error instanceof DeterminismViolationError)).map((r) => r.file)).toEqual([]);
  });

  it('replays every recorded history without nondeterminism', async () => {
    const results = await replayAll(await workflowBundle());
    expect(results.map((r) => r.file)).toEqual(await historyFiles());
    // Every failing history is named, not only the first.
    const why = (e: Error) => e.message.match(/\[TMPRL\d+\][^"]*/)?.[0] ?? e.message;
    expect(results.filter((r) => r.error).map((r) => `${r.file}: ${r.error!.name}: ${why(r.error!)}`)).toEqual([]);
  });

  it("replays every recorded history with tracing on (the platform's workflow interceptors bundled in): tracing may be turned on while deliveries sleep, and runs traced by Temporal's interceptors go on", async () => {
    const results = await replayAll(await workflowBundle(require.resolve('../../src/infra/tracing/sampled-workflow-interceptors')));
    expect(results.map((r) => r.file)).toEqual(await historyFiles());
    expect(results.filter((r) => r.error).map((r) => `${r.file}: ${r.error!.name}: ${r.error!.message.slice(0, 300)}`)).toEqual([]);
  });

  it('rejects an incompatible change in every history: the guard is shown to fail', async () => {
    const changed = await bundleWorkflowCode({
      workflowsPath: require.resolve('./fixtures/delivery-with-extra-timer'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    const results = await replayAll(changed);
    expect(results.map((r) => r.file)).toEqual(await historyFiles());
    expect(results.filter((r) => !(r.error instanceof DeterminismViolationError)).map((r) => r.file)).toEqual([]);
  });
});

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { workflowBundle } from '../../src/temporal/worker';

/**
 * Determinism guard: every recorded history of the delivery workflow (one file per released
 * version and scenario, see scripts/record-histories.ts) must replay on the current code.
 * A change that breaks this would break workflows sleeping in production: use patched().
 */
const HISTORIES = path.join(__dirname, 'histories');

describe('delivery workflow replay', () => {
  it('has recorded histories to replay', async () => {
    const files = (await readdir(HISTORIES)).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it('replays every recorded history without nondeterminism', async () => {
    const files = (await readdir(HISTORIES)).filter((f) => f.endsWith('.json'));
    const bundle = await workflowBundle();
    for (const file of files) {
      const history = temporal.api.history.v1.History.fromObject(JSON.parse(await readFile(path.join(HISTORIES, file), 'utf8')));
      await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, file)).resolves.toBeUndefined();
    }
  });

  it('rejects an incompatible change: the guard is shown to fail', async () => {
    const changed = await bundleWorkflowCode({
      workflowsPath: require.resolve('./fixtures/delivery-with-extra-timer'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    const files = (await readdir(HISTORIES)).filter((f) => f.endsWith('.json'));
    for (const file of files) {
      const history = temporal.api.history.v1.History.fromObject(JSON.parse(await readFile(path.join(HISTORIES, file), 'utf8')));
      await expect(Worker.runReplayHistory({ workflowBundle: changed }, history, file)).rejects.toBeInstanceOf(DeterminismViolationError);
    }
  });
});

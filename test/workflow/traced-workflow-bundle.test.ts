import { workflowBundle } from '../../src/temporal/worker';

/**
 * Temporal evaluates every module of the workflow bundle once per run; the workflow interceptors
 * bundled when tracing is on must therefore add no OpenTelemetry module (the SDK, its API or
 * Temporal's interceptors), or every delivery would pay for loading them.
 */
describe('the workflow bundle with tracing on', () => {
  it('holds no OpenTelemetry module', async () => {
    const { code } = await workflowBundle(require.resolve('../../src/infra/tracing/sampled-workflow-interceptors'));
    expect(code).toContain('RunWorkflow:');
    expect(code.match(/node_modules\/@opentelemetry\/[\w-]+|node_modules\/@temporalio\/interceptors-opentelemetry/g) ?? []).toEqual([]);
  }, 120_000);
});

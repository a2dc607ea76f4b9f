import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInput, WorkflowExecuteInput } from '@temporalio/workflow';
import { carriesSampledTrace, interceptors } from '../../../src/infra/tracing/sampled-workflow-interceptors';

const traceparent = (flags: string) => ({ '_tracer-data': defaultPayloadConverter.toPayload({ traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-${flags}` }) });

describe("a workflow run's tracing", () => {
  it('is on only when its start carries a sampled traceparent', () => {
    expect(carriesSampledTrace(traceparent('01'))).toBe(true);
    expect(carriesSampledTrace(traceparent('03'))).toBe(true);
    expect(carriesSampledTrace(traceparent('00'))).toBe(false);
    expect(carriesSampledTrace({})).toBe(false);
    expect(carriesSampledTrace({ '_tracer-data': defaultPayloadConverter.toPayload({ other: 'x' }) })).toBe(false);
  });

  // Outside a workflow, Temporal's interceptors cannot even be made: these calls reaching `next`
  // untouched shows that an unsampled run makes none.
  it('passes an unsampled run and its calls straight through', async () => {
    const { inbound, outbound } = interceptors();
    const start = { headers: traceparent('00'), args: [] } as unknown as WorkflowExecuteInput;
    await expect(inbound?.[0]?.execute?.(start, async (input) => input)).resolves.toBe(start);
    const schedule = { headers: {}, activityType: 'attemptDelivery' } as unknown as ActivityInput;
    await expect(outbound?.[0]?.scheduleActivity?.(schedule, async (input) => input)).resolves.toBe(schedule);
  });
});

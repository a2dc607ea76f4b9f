import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInput, WorkflowExecuteInput } from '@temporalio/workflow';
import { interceptors, sampledParent } from '../../../src/infra/tracing/sampled-workflow-interceptors';

const traceId = 'a'.repeat(32);
const spanId = 'b'.repeat(16);
const traceparent = (flags: string) => ({ '_tracer-data': defaultPayloadConverter.toPayload({ traceparent: `00-${traceId}-${spanId}-${flags}` }) });

describe("a workflow run's tracing", () => {
  it('is on only when its start carries a sampled traceparent, which it continues', () => {
    expect(sampledParent(traceparent('01'))).toEqual({ traceId, spanId });
    expect(sampledParent(traceparent('03'))).toEqual({ traceId, spanId });
    expect(sampledParent(traceparent('00'))).toBeUndefined();
    expect(sampledParent({})).toBeUndefined();
    expect(sampledParent({ '_tracer-data': defaultPayloadConverter.toPayload({ other: 'x' }) })).toBeUndefined();
    expect(sampledParent({ '_tracer-data': defaultPayloadConverter.toPayload({ traceparent: 'not-a-traceparent-01' }) })).toBeUndefined();
  });

  // Outside a workflow, recording a span would throw (no workflow context): these calls reaching
  // `next` untouched shows that an unsampled run records nothing and adds no header.
  it('passes an unsampled run and its calls straight through', async () => {
    const { inbound, outbound } = interceptors();
    const start = { headers: traceparent('00'), args: [] } as unknown as WorkflowExecuteInput;
    await expect(inbound?.[0]?.execute?.(start, async (input) => input)).resolves.toBe(start);
    const schedule = { headers: {}, activityType: 'attemptDelivery' } as unknown as ActivityInput;
    await expect(outbound?.[0]?.scheduleActivity?.(schedule, async (input) => input)).resolves.toBe(schedule);
  });
});

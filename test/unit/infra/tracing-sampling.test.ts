import { context, ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AlwaysOnSampler, SamplingDecision, TracerProvider } from '@opentelemetry/sdk-trace';
import { edgeDecision, neverSamples, platformSampler, samplerOf } from '../../../src/infra/tracing/sampling';
import { statementShape } from '../../../src/infra/tracing/statement-shape';

const manager = new AsyncLocalStorageContextManager().enable();
beforeAll(() => context.setGlobalContextManager(manager));
afterAll(() => context.disable());

const parent = (flags: TraceFlags) => trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: flags, isRemote: true });
const decide = (ctx: typeof ROOT_CONTEXT, kind: SpanKind) => platformSampler().shouldSample(ctx, 'c'.repeat(32), 'span', kind, {}, []).decision;

describe('sampling at the edge', () => {
  it('asks the configured sampler once per incoming call, for a new root', () => {
    expect(edgeDecision(samplerOf({ name: 'always_off', ratio: 1 }))()).toBe(false);
    expect(edgeDecision(samplerOf({ name: 'parentbased_always_on', ratio: 1 }))()).toBe(true);
    const tenth = edgeDecision(samplerOf({ name: 'parentbased_traceidratio', ratio: 0.1 }));
    const picked = Array.from({ length: 4000 }, tenth).filter(Boolean).length;
    expect(picked).toBeGreaterThan(200);
    expect(picked).toBeLessThan(700);
  });

  it('knows a sampler that can pick no call (then no Temporal interceptor is installed)', () => {
    expect(neverSamples({ name: 'always_off', ratio: 1 })).toBe(true);
    expect(neverSamples({ name: 'parentbased_always_off', ratio: 1 })).toBe(true);
    expect(neverSamples({ name: 'parentbased_traceidratio', ratio: 0 })).toBe(true);
    expect(neverSamples({ name: 'parentbased_traceidratio', ratio: 0.1 })).toBe(false);
    expect(neverSamples({ name: 'always_on', ratio: 0 })).toBe(false);
  });

  it('records a root only as an incoming call (the server span the edge let through); no trace starts anywhere else', () => {
    expect(decide(ROOT_CONTEXT, SpanKind.SERVER)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    for (const kind of [SpanKind.INTERNAL, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER]) expect(decide(ROOT_CONTEXT, kind)).toBe(SamplingDecision.NOT_RECORD);
  });

  it('has every later step follow the decision it carries', () => {
    expect(decide(parent(TraceFlags.SAMPLED), SpanKind.INTERNAL)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(parent(TraceFlags.NONE), SpanKind.INTERNAL)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(parent(TraceFlags.NONE), SpanKind.SERVER)).toBe(SamplingDecision.NOT_RECORD);
  });
});

describe("a store command's db.query.text", () => {
  const recorded = new TracerProvider({ sampler: new AlwaysOnSampler() }).getTracer('test').startSpan('parent');
  const insert = { _id: 7, account_id: 'acct_1', data: { password: 'hunter2-secret', nested: { deep: 'x' } }, body: '{"password":"hunter2-secret"}' };

  it('is the top-level field names, every value `?`, nothing inside walked', () => {
    const text = context.with(trace.setSpan(ROOT_CONTEXT, recorded), () => statementShape(insert));
    expect(text).toBe('{"_id":"?","account_id":"?","data":"?","body":"?"}');
  });

  it('names at most 16 fields', () => {
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i]));
    const text = context.with(trace.setSpan(ROOT_CONTEXT, recorded), () => statementShape(wide));
    expect(Object.keys(JSON.parse(text))).toHaveLength(17);
    expect(text).toContain('"…":"?"');
  });

  it('is not made at all under a span that is not recorded', () => {
    expect(context.with(parent(TraceFlags.NONE), () => statementShape(insert))).toBe('');
    expect(statementShape(insert)).toBe('');
  });
});

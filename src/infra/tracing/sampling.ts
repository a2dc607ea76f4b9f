import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import type { Attributes, Context, Link } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  RandomIdGenerator,
  Sampler,
  SamplingDecision,
  SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';
import type { SamplerName, TracingConfig } from '../../config/tracing-config';

// Whether an event is traced is decided once, at the platform's edge, by the configured sampler:
// an incoming call it does not pick is not instrumented at all (start-tracing.ts ignores it), so
// work nobody will see costs no spans. Everything after the edge follows the decision it carries
// (the stored traceparent, Temporal's headers); no trace starts anywhere else.

const SAMPLER_BY_NAME: Record<SamplerName, (ratio: number) => Sampler> = {
  always_on: () => new AlwaysOnSampler(),
  always_off: () => new AlwaysOffSampler(),
  traceidratio: (ratio) => new TraceIdRatioBasedSampler(ratio),
  parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
  parentbased_traceidratio: (ratio) => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
};

/** The configured sampler (OTEL_TRACES_SAMPLER): applied at the edge, to a new root, never to a caller's context. */
export function samplerOf({ name, ratio }: TracingConfig['sampler']): Sampler {
  return SAMPLER_BY_NAME[name](ratio);
}

/** A sampler that can pick no call (always_off, or a ratio of 0): nothing downstream needs to carry a decision. */
export function neverSamples({ name, ratio }: TracingConfig['sampler']): boolean {
  return name === 'always_off' || name === 'parentbased_always_off' || (name.endsWith('traceidratio') && ratio === 0);
}

/** Whether the next incoming call is traced: the configured sampler's decision for a new root. */
export function edgeDecision(configured: Sampler): () => boolean {
  const ids = new RandomIdGenerator();
  return () => configured.shouldSample(ROOT_CONTEXT, ids.generateTraceId(), 'edge', SpanKind.SERVER, {}, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
}

/** A root is recorded only as an incoming call's server span, which exists only when the edge picked the call. */
class EdgeRoot implements Sampler {
  shouldSample(_context: Context, _traceId: string, _name: string, kind: SpanKind, _attributes: Attributes, _links: Link[]): SamplingResult {
    return { decision: kind === SpanKind.SERVER ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
  }

  toString(): string {
    return 'EdgeRoot';
  }
}

/** The provider's sampler: a child follows its parent; a root is the edge's. */
export const platformSampler = (): Sampler => new ParentBasedSampler({ root: new EdgeRoot() });

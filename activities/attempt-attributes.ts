import { ATTR } from '../src/infra/tracing/spans';
import type { AttemptInput } from './delivery-activities';

/** What a trace shows of an attempt (docs/operating.md#traces): ids and numbers, nothing of the body or secrets. */
export function attemptAttributes(input: AttemptInput) {
  return {
    [ATTR.eventId]: input.eventId,
    [ATTR.eventType]: input.type,
    [ATTR.accountId]: input.accountId,
    [ATTR.endpointId]: input.endpointId,
    [ATTR.round]: input.round,
    [ATTR.attempt]: input.attempt,
  };
}

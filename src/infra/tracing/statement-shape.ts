import { trace } from '@opentelemetry/api';

/** Fields named before the rest are summed up as one `…`. */
const MAX_FIELDS = 16;

/**
 * A store command's `db.query.text`: its top-level field names, every value `?`. Nothing inside is
 * walked: documents hold sealed secrets and whole event bodies, and the instrumentation asks for this
 * before the sampler has decided, for every command. Under a span not recorded (the command's own
 * will not be either), nothing is made at all.
 */
export function statementShape(command: Record<string, unknown>): string {
  if (trace.getActiveSpan()?.isRecording() !== true) return '';
  const fields = Object.keys(command);
  const shown = fields.slice(0, MAX_FIELDS).map((field) => `${JSON.stringify(field)}:"?"`);
  if (fields.length > MAX_FIELDS) shown.push('"…":"?"');
  return `{${shown.join(',')}}`;
}

import { z } from 'zod';
import { EVENT_TYPE_REGEX } from '../../../../domain/webhooks/event-pattern';
import {
  MAX_EVENT_TYPE_DESCRIPTION_LENGTH,
  MAX_EVENT_TYPE_EXAMPLE_BYTES,
  MAX_EVENT_TYPE_SCHEMA_BYTES,
  MAX_EVENT_TYPES_PER_ACCOUNT,
  serializedBytes,
} from '../../../../domain/webhooks/event-type';
import { JsonObject, pageOf } from './schemas';
import { isDotSegment } from '../../../../domain/webhooks/path-segment';

const kib = (bytes: number) => `${bytes / 1024} KiB`;

const EventTypeName = z
  .string()
  .regex(EVENT_TYPE_REGEX, 'must be 1 to 256 characters of A-Z a-z 0-9 _ . : -')
  .refine((name) => !isDotSegment(name), 'must not be "." or "..", which no URL can name')
  .describe(
    'An exact event type, as ingest takes it (1 to 256 characters of A-Z a-z 0-9 _ . : -; no pattern; not `.` or `..`). Types starting `platform.` are the platform\'s own: 422 `reserved_event_type`.',
  )
  .meta({ example: 'invoice.paid' });

const Description = z.string().max(MAX_EVENT_TYPE_DESCRIPTION_LENGTH);

/** JsonObject's document says `object` alone, which a nullable of it keeps: say that null is taken (it removes the field). */
const NULLABLE_OBJECT = { type: ['object', 'null'], additionalProperties: {} } as never;

const withinBytes = (max: number) => (value: Record<string, unknown> | null) => value === null || serializedBytes(value) <= max;

const SchemaField = JsonObject.nullable()
  .refine(withinBytes(MAX_EVENT_TYPE_SCHEMA_BYTES), `must be at most ${kib(MAX_EVENT_TYPE_SCHEMA_BYTES)} serialized`)
  .describe(
    `A JSON Schema (draft 2020-12) that the events' \`data\` must match, at most ${kib(MAX_EVENT_TYPE_SCHEMA_BYTES)} serialized; null or absent: any data. ` +
      'Checked at registration (not a valid schema, or an unknown keyword: 422 `invalid_schema` with `details`). Ingest of an event of this type whose `data` does ' +
      'not match → 422 `schema_mismatch` with the failing paths in `details`, and nothing is stored.',
  )
  .meta(NULLABLE_OBJECT);

const ExampleField = JsonObject.nullable()
  .refine(withinBytes(MAX_EVENT_TYPE_EXAMPLE_BYTES), `must be at most ${kib(MAX_EVENT_TYPE_EXAMPLE_BYTES)} serialized`)
  .describe(`An example \`data\`, at most ${kib(MAX_EVENT_TYPE_EXAMPLE_BYTES)} serialized; it must match \`schema\` (else 422 \`invalid_example\`); null or absent: none.`)
  .meta(NULLABLE_OBJECT);

export const EventTypeNameParams = z.object({ name: z.string().min(1).max(256).meta({ description: 'The event type\'s name.', example: 'invoice.paid' }) });

export const EventTypeCreateBody = z
  .strictObject({
    name: EventTypeName,
    description: Description.optional().describe('Free text, default "".'),
    schema: SchemaField.optional(),
    example: ExampleField.optional(),
  })
  .meta({ id: 'CreateEventTypeRequest' });

export const EventTypePatchBody = z
  .strictObject({
    description: Description.optional(),
    schema: SchemaField.optional(),
    example: ExampleField.optional(),
  })
  .describe(
    'Absent fields stay as they are; null removes the schema or the example. The record after must hold together: its example matching its schema. ' +
      'Only the fields named are written, in one atomic update; a new schema (example) is written only if the example (schema) it was checked against is still the one kept, else 409 `event_type_changed`.',
  )
  .meta({ id: 'UpdateEventTypeRequest' });

export const EventType = z
  .object({
    name: z.string(),
    description: z.string(),
    schema: z.record(z.string(), z.unknown()).nullable(),
    example: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.string().describe('ISO 8601 UTC.'),
    updated_at: z.string(),
  })
  .describe(`An entry of the account's event-type catalog (at most ${MAX_EVENT_TYPES_PER_ACCOUNT} per account).`)
  .meta({ id: 'EventType' });

export const EventTypeList = pageOf(EventType, 'EventTypePage');

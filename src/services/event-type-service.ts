import { z } from 'zod';
import type { Clock } from '../domain/clock';
import { DomainError, ValidationError } from '../domain/errors';
import { checkEventTypeName, MAX_EVENT_TYPES_PER_ACCOUNT } from '../domain/webhooks/event-type';
import type { SchemaCheckPool } from '../infra/schema-check-pool';
import type { EventTypeChanges, EventTypeDoc, EventTypeGuard, EventTypes } from '../persistence/event-types';
import { decodeCursor, encodeCursor } from './pagination';

export interface EventTypeInput {
  name: string;
  description?: string;
  schema?: Record<string, unknown> | null;
  example?: Record<string, unknown> | null;
}

export type EventTypeView = ReturnType<typeof eventTypeView>;

const EventTypeCursor = z.object({ n: z.string() });

function eventTypeView(doc: EventTypeDoc) {
  return {
    name: doc.name,
    description: doc.description,
    schema: doc.schema,
    example: doc.example,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/** The account's event-type catalog (docs/event-types.md); ingest reads it through EventTypeSchemas. */
export class EventTypeService {
  readonly maxPerAccount: number;

  constructor(private readonly deps: { eventTypes: EventTypes; schemaChecks: Pick<SchemaCheckPool, 'compile'>; clock: Clock; maxPerAccount?: number }) {
    this.maxPerAccount = deps.maxPerAccount ?? MAX_EVENT_TYPES_PER_ACCOUNT;
  }

  /** Never more than the cap under concurrent creates (account_counts); a name taken is a 409, as Svix answers. */
  async create(accountId: string, input: EventTypeInput): Promise<EventTypeView> {
    const name = input.name;
    const check = checkEventTypeName(name);
    if (!check.ok) {
      if (check.reserved) throw new DomainError('reserved_event_type', `Event type "${name}": ${check.message}; they cannot be registered.`);
      throw new ValidationError(`Event type name ${check.message}.`, [{ path: 'name', message: check.message }]);
    }
    await this.checkSchemaAndExample(input.schema ?? null, input.example ?? null);
    const now = this.deps.clock();
    const doc: EventTypeDoc = {
      _id: `${accountId}/${name}`,
      account_id: accountId,
      name,
      description: input.description ?? '',
      schema: input.schema ?? null,
      example: input.example ?? null,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    if ((await this.deps.eventTypes.find(accountId, name)) !== null) throw exists(name);
    const outcome = await this.deps.eventTypes.insertIfRoom(doc, this.maxPerAccount);
    if (outcome === 'exists') throw exists(name);
    if (outcome === 'limit') {
      throw new DomainError('event_type_limit_reached', `This account's catalog already holds the most event types it may (${this.maxPerAccount}). Delete one first.`);
    }
    return eventTypeView(doc);
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<{ data: EventTypeView[]; next_cursor: string | null }> {
    const after = cursor ? decodeCursor(cursor, EventTypeCursor).n : undefined;
    const docs = await this.deps.eventTypes.list(accountId, limit + 1, after);
    const page = docs.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(eventTypeView), next_cursor: docs.length > limit && last ? encodeCursor({ n: last.name }) : null };
  }

  async get(accountId: string, name: string): Promise<EventTypeView> {
    return eventTypeView(await this.require(accountId, name));
  }

  /**
   * One atomic update of the changed fields: a concurrent PATCH of other fields keeps its change. The record after must
   * hold together (its example matching its schema): a change of one of the two is checked against the other as read, and
   * written only if that one is still the same (else 409 `event_type_changed`, nothing changed).
   */
  async update(accountId: string, name: string, patch: EventTypeChanges): Promise<EventTypeView> {
    const current = await this.require(accountId, name);
    const changes: EventTypeChanges = {};
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.schema !== undefined) changes.schema = patch.schema;
    if (patch.example !== undefined) changes.example = patch.example;
    // The record as stored holds together: only a change of the schema or the example is checked.
    if (changes.schema !== undefined || changes.example !== undefined) {
      await this.checkSchemaAndExample(changes.schema === undefined ? current.schema : changes.schema, changes.example === undefined ? current.example : changes.example);
    }
    const updated = await this.deps.eventTypes.update(current, changes, this.deps.clock(), checkedAgainst(changes));
    if (updated) return eventTypeView(updated);
    await this.require(accountId, name);
    throw new DomainError(
      'event_type_changed',
      `Event type "${name}": its ${changes.schema === undefined ? 'schema' : 'example'} was changed while this change was checked against it. Nothing was changed; read it and try again.`,
    );
  }

  async delete(accountId: string, name: string): Promise<void> {
    if (!(await this.deps.eventTypes.delete(accountId, name))) throw notFound(name);
  }

  /** A schema must compile (on a schema thread, within its deadline), and an example must match the schema beside it. */
  private async checkSchemaAndExample(schema: Record<string, unknown> | null, example: Record<string, unknown> | null): Promise<void> {
    if (schema === null) return;
    const compiled = await this.deps.schemaChecks.compile(schema, example);
    if (!compiled.ok) throw new ValidationError('The schema is not a valid JSON Schema (draft 2020-12).', compiled.details, 'invalid_schema');
    if (compiled.exampleFailures) {
      const details = compiled.exampleFailures.map((d) => ({ ...d, path: d.path.replace(/^data/, 'example') }));
      throw new ValidationError('The example does not match the schema.', details, 'invalid_example');
    }
  }

  private async require(accountId: string, name: string): Promise<EventTypeDoc> {
    const doc = await this.deps.eventTypes.find(accountId, name);
    if (!doc) throw notFound(name);
    return doc;
  }
}

/** The field a change was checked against: a new schema against the example kept, a new example against the schema kept. */
function checkedAgainst(changes: EventTypeChanges): EventTypeGuard | undefined {
  const schemaSet = changes.schema !== undefined && changes.schema !== null;
  const exampleSet = changes.example !== undefined && changes.example !== null;
  if (schemaSet && changes.example === undefined) return 'example';
  if (exampleSet && changes.schema === undefined) return 'schema';
  return undefined;
}

const notFound = (name: string) => new DomainError('not_found', `Event type "${name}" not found.`);
const exists = (name: string) => new DomainError('event_type_exists', `The catalog already has an event type "${name}".`);

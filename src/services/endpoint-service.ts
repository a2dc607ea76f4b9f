import { z } from 'zod';
import type { Clock } from '../domain/clock';
import { DomainError, ValidationError } from '../domain/errors';
import { newId } from '../domain/ids';
import { validateDestinationUrl } from '../domain/webhooks/destination-address';
import { LookupAllFunction, resolveAndCheck } from '../domain/webhooks/destination-resolver';
import { DEFAULT_EVENT_PATTERNS, validateEventPatterns } from '../domain/webhooks/event-pattern';
import type { SecretBox } from '../domain/webhooks/secret-box';
import { generateSigningSecret } from '../domain/webhooks/signature';
import { DEFAULT_GRACE_PERIOD_SECONDS, rotateSecretSet, secretsInGrace } from '../domain/webhooks/secret-rotation';
import { countLast24h, HealthSummary, shouldDisableForFailures } from '../domain/webhooks/endpoint-health';
import type { Deliveries } from '../persistence/deliveries';
import type { EndpointHealthLog } from '../persistence/endpoint-health-log';
import type { EndpointChanges, EndpointDoc, EndpointInsertRefusal, Endpoints, StoredDestination } from '../persistence/endpoints';
import { DEFAULT_TENANT_CAPS, type RecordOwner, type TenantCaps } from '../domain/webhooks/tenant';
import { ownedBy } from '../persistence/tenants';
import type { DeliveryScheduler } from '../temporal/delivery-scheduler';
import type { ResumeScheduler } from '../temporal/resume-scheduler';
import { decodeCursor, encodeCursor } from './pagination';
import { orderingOf, type EndpointOrdering } from '../domain/webhooks/fifo-order';
import type { FifoTurns } from './fifo-turns';
import { destinationView, storedDestination, type DestinationInput } from './endpoint-destination';
import { URL_REQUIRED } from '../domain/webhooks/destination';

/** A FIFO endpoint's queue is shown on GET of the endpoint only (fifo-turns.ts). */
export type EndpointView = ReturnType<typeof endpointView> & { fifo?: Awaited<ReturnType<FifoTurns['view']>> };

interface EndpointInput {
  /** An HTTPS endpoint's; or `destination`, a broker endpoint's (endpoint-destination.ts). */
  url?: string;
  destination?: DestinationInput;
  events?: string[];
  description?: string;
  /** Create: its tenant (absent: the account's own). PATCH: moves it; null makes it the account's own. */
  tenant_id?: string | null;
  ordering?: EndpointOrdering;
  /** The endpoint's own limits: null clears one (on PATCH), absent leaves it. */
  rate_limit_per_s?: number | null;
  max_in_flight?: number | null;
}

const EndpointCursor = z.object({ c: z.number(), id: z.string() });

/** Disable and delete cancel the endpoint's deliveries: ids read a page at a time, cancels sent this many at once. */
export const CANCEL_PAGE_SIZE = 100;
export const CANCEL_CONCURRENCY = 16;

interface EndpointServiceDeps {
  endpoints: Endpoints;
  deliveries: Deliveries;
  health: EndpointHealthLog;
  scheduler: DeliveryScheduler;
  resumer: Pick<ResumeScheduler, 'start'>;
  secretBox: SecretBox;
  /** A FIFO endpoint's queue as GET shows it, and released when it turns unordered; without it, none is shown. */
  fifoQueue?: Pick<FifoTurns, 'view' | 'release'>;
  allowPrivateNetworks: boolean;
  /** Endpoints one account may have, disabled ones included (MAX_ENDPOINTS_PER_ACCOUNT). */
  maxEndpointsPerAccount: number;
  /** Endpoints per tenant and tenants per account (MAX_ENDPOINTS_PER_TENANT, MAX_TENANTS_PER_ACCOUNT); default: their defaults. */
  tenantCaps?: TenantCaps;
  /** The auto-disable rule's period (ENDPOINT_AUTO_DISABLE_HOURS), shown where the rule is explained. */
  autoDisableAfterMs: number;
  dnsLookup: LookupAllFunction;
  clock: Clock;
}

export class EndpointService {
  readonly maxEndpointsPerAccount: number;
  readonly tenantCaps: TenantCaps;
  readonly autoDisableAfterMs: number;

  constructor(private readonly deps: EndpointServiceDeps) {
    this.maxEndpointsPerAccount = deps.maxEndpointsPerAccount;
    this.tenantCaps = deps.tenantCaps ?? DEFAULT_TENANT_CAPS;
    this.autoDisableAfterMs = deps.autoDisableAfterMs;
  }

  /** Concurrent creates never exceed maxEndpointsPerAccount and fill up to it (Endpoints.insertIfRoom). */
  async create(accountId: string, input: EndpointInput): Promise<EndpointView & { secret: string }> {
    const target = await this.checkTarget(input, undefined);
    if (!target) throw new ValidationError(`url ${URL_REQUIRED}.`, [{ path: 'url', message: URL_REQUIRED }]);
    const events = this.checkPatterns(input.events ?? [...DEFAULT_EVENT_PATTERNS]);
    const max = this.deps.maxEndpointsPerAccount;
    const secret = generateSigningSecret();
    const now = this.deps.clock();
    const doc: EndpointDoc = {
      _id: newId('ep'),
      account_id: accountId,
      // Stored only when given: an absent tenant is the account's own.
      ...(input.tenant_id != null ? { tenant_id: input.tenant_id } : {}),
      ...target,
      events,
      description: input.description ?? '',
      secret_sealed: this.deps.secretBox.seal(secret),
      disabled: false,
      disabled_reason: null,
      ...limitChanges(input),
      // Stored only when FIFO: an absent ordering is unordered.
      ...(input.ordering === 'fifo' ? { ordering: input.ordering } : {}),
      created_at: now,
      updated_at: now,
    };
    const refused = await this.deps.endpoints.insertIfRoom(doc, max, this.tenantCaps);
    if (refused) throw this.capReached(refused, input.tenant_id ?? null);
    return { ...endpointView(doc, null, now), secret };
  }

  count(accountId: string): Promise<number> {
    return this.deps.endpoints.countForAccount(accountId);
  }

  /** With `tenantId`, that tenant's endpoints only. */
  async list(accountId: string, limit: number, cursor?: string, tenantId?: string): Promise<{ data: EndpointView[]; next_cursor: string | null }> {
    const after = cursor ? decodeCursor(cursor, EndpointCursor) : undefined;
    const docs = await this.deps.endpoints.list(accountId, limit + 1, after ? { createdAt: new Date(after.c), id: after.id } : undefined, tenantId);
    const page = docs.slice(0, limit);
    const last = page[page.length - 1];
    return {
      data: await Promise.all(page.map((d) => this.view(d))),
      next_cursor: docs.length > limit && last ? encodeCursor({ c: last.created_at.getTime(), id: last._id }) : null,
    };
  }

  /**
   * The operations on one endpoint take its owner (RecordOwner): for a portal session's call, its tenant, in the filter of
   * every read and write, so that another tenant's endpoint is a 404 also when it moved there between a read and a write.
   */
  async get(owner: RecordOwner, id: string): Promise<EndpointView> {
    const doc = await requireEndpoint(this.deps.endpoints, owner, id);
    const [view, fifo] = await Promise.all([this.view(doc), orderingOf(doc) === 'fifo' ? this.deps.fifoQueue?.view(doc._id) : undefined]);
    return fifo ? { ...view, fifo } : view;
  }

  async update(owner: RecordOwner, id: string, patch: Partial<EndpointInput> & { disabled?: boolean }): Promise<EndpointView> {
    let current = await requireEndpoint(this.deps.endpoints, owner, id);
    const changes: EndpointChanges = {};
    // Checked before the move, so that a refused change moves nothing.
    Object.assign(changes, await this.checkTarget(patch, current));
    if (patch.events !== undefined) changes.events = this.checkPatterns(patch.events);
    const movedTenant = patch.tenant_id !== undefined && patch.tenant_id !== (current.tenant_id ?? null);
    if (movedTenant) current = await this.moveToTenant(current, patch.tenant_id ?? null);
    if (patch.description !== undefined) changes.description = patch.description;
    Object.assign(changes, limitChanges(patch));
    if (patch.ordering !== undefined && patch.ordering !== orderingOf(current)) changes.ordering = patch.ordering;
    if (patch.disabled !== undefined && patch.disabled !== current.disabled) {
      changes.disabled = patch.disabled;
      changes.disabled_reason = patch.disabled ? 'manual' : null;
    }
    const now = this.deps.clock();
    // Enabling again clears the mark and starts the failing streak afresh (a whole new period before auto-disable).
    if (changes.disabled === false) await this.deps.health.record(id, { kind: 'enabled', key: `enabled#${now.toISOString()}`, at: now });
    const updated = await this.deps.endpoints.update(current, changes, now, ownedBy(owner));
    if (!updated) throw notFound(id);
    // Only when it changes: an endpoint disabled already has nothing to cancel (a delivery left over ends at its next attempt).
    // A move too: its waiting deliveries are of the tenant it left.
    if (changes.disabled === true || movedTenant) await this.cancelInFlight(id);
    // After the write: a delivery woken now reads the endpoint unordered.
    if (changes.ordering === 'unordered') await this.deps.fifoQueue?.release(id);
    return this.view(updated);
  }

  /**
   * While paused, due deliveries wait: an attempt marks itself, then reads the flag again; a resume clears the flag, then
   * wakes every marked one. Whichever reads second sees the other's write: none is left waiting. Idempotent.
   */
  async pause(owner: RecordOwner, id: string): Promise<EndpointView> {
    const current = await requireEndpoint(this.deps.endpoints, owner, id);
    if (!current.paused && !(await this.deps.endpoints.update(current, { paused: true }, this.deps.clock(), ownedBy(owner)))) throw notFound(id);
    return this.get(owner, id);
  }

  /**
   * Clears the flag, then tells the endpoint's resume workflow (one signal; started if none runs), also when not paused: a
   * resume whose start failed is repeated. A running one takes it in (workflows/resume.ts): calls do not multiply its work.
   */
  async resume(owner: RecordOwner, id: string): Promise<EndpointView> {
    const current = await requireEndpoint(this.deps.endpoints, owner, id);
    if (current.paused && !(await this.deps.endpoints.update(current, { paused: false }, this.deps.clock(), ownedBy(owner)))) throw notFound(id);
    if (current.paused || (await this.deps.deliveries.pausedForEndpoint(id, undefined, 1)).length > 0) await this.deps.resumer.start({ accountId: current.account_id, endpointId: id });
    return this.get(owner, id);
  }

  /** Decided in activities/attempt-settle.ts; a re-enable since wins: it marks health before it enables, and health is read after. */
  async disableForFailures(accountId: string, id: string, decidedAt: Date): Promise<void> {
    const current = await this.deps.endpoints.find(accountId, id);
    if (!current || current.disabled) return;
    if (!shouldDisableForFailures(await this.deps.health.read(id), decidedAt, this.autoDisableAfterMs)) return;
    const disabled = { disabled: true, disabled_reason: 'failing' } as const;
    if (await this.deps.endpoints.update(current, disabled, this.deps.clock(), { updated_at: current.updated_at })) await this.cancelInFlight(id);
  }

  /** Deleting stops every pending retry to the endpoint; those deliveries end `cancelled`. */
  async delete(owner: RecordOwner, id: string): Promise<void> {
    if (!(await this.deps.endpoints.delete(owner, id))) throw notFound(id);
    await this.cancelInFlight(id);
  }

  async getSecret(owner: RecordOwner, id: string): Promise<string> {
    return this.deps.secretBox.open((await requireEndpoint(this.deps.endpoints, owner, id)).secret_sealed);
  }

  /**
   * Signs every attempt from now on; the old secret also signs `webhook-signature` for `graceSeconds`. Concurrent rotations
   * line up: one replaces the secrets it read, the other derives again from the winner's (a try fails only when another succeeded).
   */
  async rotateSecret(owner: RecordOwner, id: string, graceSeconds = DEFAULT_GRACE_PERIOD_SECONDS): Promise<string> {
    let current = await requireEndpoint(this.deps.endpoints, owner, id);
    const secret = generateSigningSecret();
    const sealed = this.deps.secretBox.seal(secret);
    const now = this.deps.clock();
    // Each rotation seals a new secret (with a fresh IV), so the sealed text read names the version replaced.
    while (!(await this.deps.endpoints.update(current, rotateSecretSet(current, sealed, graceSeconds, now), now, { secret_sealed: current.secret_sealed, ...ownedBy(owner) }))) {
      current = await requireEndpoint(this.deps.endpoints, owner, id);
    }
    return secret;
  }

  /** Another tenant's events never reach it: one conditional update on the tenant read, its places taken and given back in persistence. */
  private async moveToTenant(current: EndpointDoc, to: string | null): Promise<EndpointDoc> {
    for (;;) {
      const moved = await this.deps.endpoints.moveToTenant(current, to, this.tenantCaps, this.deps.clock());
      if (typeof moved === 'string') throw this.capReached(moved, to);
      if (moved) return moved;
      // Deleted (404), or moved by another call since it was read: decided again from what it is now.
      current = await requireEndpoint(this.deps.endpoints, current.account_id, current._id);
      if ((current.tenant_id ?? null) === to) return current;
    }
  }

  private capReached(refused: EndpointInsertRefusal, tenantId: string | null): DomainError {
    const { endpointsPerTenant, tenantsPerAccount } = this.tenantCaps;
    switch (refused) {
      case 'account_full':
        return new DomainError(
          'endpoint_limit_reached',
          `This account already has the most endpoints it may have (${this.deps.maxEndpointsPerAccount}). Delete one, or subscribe an existing endpoint to more event types.`,
        );
      case 'tenant_full':
        return new DomainError('tenant_endpoint_limit_reached', `Tenant ${tenantId} already has the most endpoints a tenant may have (${endpointsPerTenant}). Delete one of them first.`);
      case 'tenants_full':
        return new DomainError('tenant_limit_reached', `This account already has the most tenants it may have (${tenantsPerAccount}). Delete a tenant (or its last endpoint) first.`);
    }
  }

  private async view(doc: EndpointDoc): Promise<EndpointView> {
    return endpointView(doc, await this.deps.health.read(doc._id), this.deps.clock());
  }

  /** Ids only, a page at a time, CANCEL_CONCURRENCY cancels at once: one call's memory and open requests stay bounded. */
  private async cancelInFlight(endpointId: string): Promise<void> {
    for await (const ids of this.deps.deliveries.inFlightIdsForEndpoint(endpointId, CANCEL_PAGE_SIZE)) {
      for (let i = 0; i < ids.length; i += CANCEL_CONCURRENCY) await Promise.all(ids.slice(i, i + CANCEL_CONCURRENCY).map((id) => this.deps.scheduler.cancel(id)));
    }
  }

  /**
   * CONTRACT §3: malformed → 400; not https, credentials, or a refused address → 422. A name that does not resolve yet is
   * accepted (DNS may come later; every attempt checks again); one whose lookup times out could not be checked: 422.
   */
  private async checkUrl(raw: string): Promise<string> {
    const verdict = validateDestinationUrl(raw, { allowPrivate: this.deps.allowPrivateNetworks });
    if (!verdict.ok) {
      if (verdict.code === 'invalid_url') throw new ValidationError(verdict.message, [{ path: 'url', message: verdict.message }], verdict.code);
      throw new DomainError(verdict.code, verdict.message);
    }
    const resolved = await resolveAndCheck(verdict.url.hostname, {
      allowPrivate: this.deps.allowPrivateNetworks,
      lookup: this.deps.dnsLookup,
    });
    if (!resolved.ok && resolved.code !== 'dns_lookup_failed') throw new DomainError(resolved.code, resolved.message);
    return raw;
  }

  /** The url, or the broker destination (its label stored as `url`); one of them, never both; null when neither is given. */
  private async checkTarget(input: Partial<EndpointInput>, current: EndpointDoc | undefined): Promise<{ url: string; destination?: StoredDestination | null } | null> {
    if (input.url !== undefined && input.destination !== undefined) {
      const message = 'An endpoint has url (HTTPS) or destination (a broker), not both.';
      throw new ValidationError(message, [{ path: 'destination', message }]);
    }
    // The url it already has (an edit form sends it back): checked at registration and at every attempt, not again, so
    // that an edit of its patterns or description is not refused because its host now resolves elsewhere (`cli listen`'s).
    if (input.url !== undefined && current && !current.destination && input.url === current.url) return null;
    if (input.url !== undefined) return { url: await this.checkUrl(input.url), ...(current?.destination && { destination: null }) };
    if (input.destination === undefined) return null;
    const { destination, label } = await storedDestination(input.destination, current?.destination ?? undefined, this.deps);
    return { url: label, destination };
  }

  private checkPatterns(patterns: string[]): string[] {
    const verdict = validateEventPatterns(patterns);
    if (!verdict.ok) {
      throw new ValidationError(
        'events must be a non-empty array of at most 100 patterns (`*`, `<prefix>.*` or an event type).',
        verdict.issues.map((i) => ({ path: i.index === null ? 'events' : `events.${i.index}`, message: i.message })),
      );
    }
    return [...verdict.patterns];
  }
}

/** The limits given (bounds checked by the request schema), null included: a new one applies from the next attempt. */
function limitChanges({ rate_limit_per_s, max_in_flight }: Partial<EndpointInput>): Pick<EndpointChanges, 'rate_limit_per_s' | 'max_in_flight'> {
  return { ...(rate_limit_per_s !== undefined && { rate_limit_per_s }), ...(max_in_flight !== undefined && { max_in_flight }) };
}

/** The owner's endpoint, or 404 `not_found` (another account's, or for a tenant's caller another tenant's, is not found either). */
export async function requireEndpoint(endpoints: Pick<Endpoints, 'find'>, owner: RecordOwner, id: string): Promise<EndpointDoc> {
  const doc = await endpoints.find(owner, id);
  if (!doc) throw notFound(id);
  return doc;
}

function notFound(id: string): DomainError {
  return new DomainError('not_found', `Endpoint ${id} not found.`);
}

function endpointView(doc: EndpointDoc, health: HealthSummary | null, now: Date) {
  return {
    id: doc._id,
    /** Its tenant; null: the account's own (tenant.ts). */
    tenant_id: doc.tenant_id ?? null,
    url: doc.destination ? null : doc.url,
    destination: destinationView(doc),
    events: doc.events,
    description: doc.description,
    disabled: doc.disabled,
    /** `manual` (its owner disabled it), `failing` (disabled by the platform: see endpoint-health.ts), null when enabled. */
    disabled_reason: doc.disabled_reason,
    /** Its deliveries wait, with no attempt, until it is resumed (endpoint-pause.ts). */
    paused: doc.paused ?? false,
    /** Its own limits (endpoint-limits.ts); null: none. */
    rate_limit_per_s: doc.rate_limit_per_s ?? null,
    max_in_flight: doc.max_in_flight ?? null,
    /** `fifo`: one delivery at a time, in ingest order (fifo-order.ts). */
    ordering: orderingOf(doc),
    health: {
      ...(health ? countLast24h(health, now) : { succeeded_24h: 0, failed_24h: 0 }),
      last_success_at: health?.last_success_at?.toISOString() ?? null,
      last_failure_at: health?.last_failure_at?.toISOString() ?? null,
      consecutive_failures: health?.consecutive_failures ?? 0,
      failing_since: health?.failing_since?.toISOString() ?? null,
    },
    /** Replaced secrets still signing `webhook-signature`, newest first: when each stops. */
    secrets_in_grace: secretsInGrace(doc, now).map((s) => ({ expires_at: s.expires_at.toISOString() })),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

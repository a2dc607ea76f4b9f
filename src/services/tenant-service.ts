import { z } from 'zod';
import { DomainError } from '../domain/errors';
import type { Endpoints } from '../persistence/endpoints';
import type { PortalSessions } from '../persistence/portal-sessions';
import type { TenantDoc, Tenants } from '../persistence/tenants';
import { CANCEL_PAGE_SIZE, type EndpointService } from './endpoint-service';
import { decodeCursor, encodeCursor } from './pagination';

const TenantCursor = z.object({ c: z.number(), id: z.string() });

export type TenantView = ReturnType<typeof tenantView>;

interface TenantServiceDeps {
  tenants: Pick<Tenants, 'list' | 'find'>;
  endpoints: Pick<Endpoints, 'list'>;
  /** Each endpoint goes the way one DELETE of it goes: its waiting deliveries cancelled a page at a time. */
  endpointService: Pick<EndpointService, 'delete'>;
  portalSessions: Pick<PortalSessions, 'deleteForTenant'>;
}

/** The account's tenants: listed with their endpoint counts, and deleted with their endpoints. */
export class TenantService {
  constructor(private readonly deps: TenantServiceDeps) {}

  async list(accountId: string, limit: number, cursor?: string): Promise<{ data: TenantView[]; next_cursor: string | null }> {
    const after = cursor ? decodeCursor(cursor, TenantCursor) : undefined;
    const docs = await this.deps.tenants.list(accountId, limit + 1, after ? { createdAt: new Date(after.c), id: after.id } : undefined);
    const page = docs.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(tenantView), next_cursor: docs.length > limit && last ? encodeCursor({ c: last.created_at.getTime(), id: last._id }) : null };
  }

  /**
   * Deletes the endpoints the tenant has when called, one after another, each as its own DELETE would (so the work is that
   * of at most MAX_ENDPOINTS_PER_TENANT deletes, each bounded); the tenant goes with its last. Its portal sessions end
   * first, so that none makes an endpoint for it meanwhile, nor after. 404 if it has neither endpoint nor session.
   */
  async delete(accountId: string, tenantId: string): Promise<void> {
    let after: { createdAt: Date; id: string } | undefined;
    const sessionsEnded = await this.deps.portalSessions.deleteForTenant(accountId, tenantId);
    let found = sessionsEnded > 0 || (await this.deps.tenants.find(accountId, tenantId)) !== null;
    for (;;) {
      const page = await this.deps.endpoints.list(accountId, CANCEL_PAGE_SIZE, after, tenantId);
      for (const endpoint of page) {
        found = true;
        // One deleted meanwhile by another call is gone all the same.
        await this.deps.endpointService.delete(accountId, endpoint._id).catch((err: unknown) => {
          if (!(err instanceof DomainError && err.code === 'not_found')) throw err;
        });
      }
      const last = page[page.length - 1];
      if (page.length < CANCEL_PAGE_SIZE || !last) break;
      after = { createdAt: last.created_at, id: last._id };
    }
    if (!found) throw new DomainError('not_found', `Tenant ${tenantId} not found (it has no endpoints and no portal sessions).`);
  }
}

function tenantView(doc: TenantDoc) {
  return { tenant_id: doc.tenant_id, endpoint_count: doc.endpoints, created_at: doc.created_at.toISOString() };
}

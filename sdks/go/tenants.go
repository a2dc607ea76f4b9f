package platform

import (
	"context"
	"iter"

	"github.com/devops-platform/platform-go/generated"
)

// Tenants lists and deletes the account's tenants (its customers, named by the sender's own ids). A tenant
// appears with its first endpoint (WithEndpointTenant on Endpoints.Create) and goes with its last.
type Tenants struct {
	api *generated.ClientWithResponses
}

// Page reads one page of tenants (newest first, with their endpoint counts) from cursor ("" for the first);
// pageSize 0 means PageSize.
func (t *Tenants) Page(ctx context.Context, cursor string, pageSize int) (*TenantPage, error) {
	if pageSize == 0 {
		pageSize = PageSize
	}
	resp, err := t.api.GetApiV1WebhooksTenantsWithResponse(ctx, &generated.GetApiV1WebhooksTenantsParams{Limit: &pageSize, Cursor: nonZero(cursor)})
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// List yields every tenant, page after page; it stops at the first error, which it yields.
func (t *Tenants) List(ctx context.Context, pageSize int) iter.Seq2[Tenant, error] {
	return pages(func(cursor string) ([]Tenant, *string, error) {
		page, err := t.Page(ctx, cursor, pageSize)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Delete deletes every endpoint of the tenant (their waiting deliveries end cancelled); its events stay.
// A tenant with no endpoint is a 404.
func (t *Tenants) Delete(ctx context.Context, tenantID string) error {
	resp, err := t.api.DeleteApiV1WebhooksTenantsTenantIdWithResponse(ctx, tenantID)
	if err != nil {
		return err
	}
	_, err = result[struct{}](nil, resp.HTTPResponse, resp.Body)
	return err
}

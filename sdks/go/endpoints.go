package platform

import (
	"bytes"
	"context"
	"iter"
	"time"

	"github.com/devops-platform/platform-go/generated"
)

// Endpoints manages the account's webhook endpoints.
type Endpoints struct {
	api *generated.ClientWithResponses
}

// EndpointOption configures one Create or CreateForDestination.
type EndpointOption func(*generated.CreateEndpointRequest)

// WithEndpointTenant makes the endpoint one tenant's: it receives only the events sent for that tenant (WithTenant).
func WithEndpointTenant(tenantID string) EndpointOption {
	return func(r *generated.CreateEndpointRequest) { r.TenantId = &tenantID }
}

// Create registers an endpoint for url (events: the event types it receives; nil for all). The answer carries its signing secret.
func (e *Endpoints) Create(ctx context.Context, url string, events []string, opts ...EndpointOption) (*EndpointWithSecret, error) {
	return e.create(ctx, generated.CreateEndpointRequest{Url: &url}, events, opts)
}

// CreateForDestination registers an endpoint that publishes each delivery to a broker instead of POSTing it
// (docs/destinations.md): build destination with its FromRabbitMqDestination, FromKafkaDestination or
// FromSqsDestination. Its credentials are write-only: the endpoint read back names the ones set
// (Destination.CredentialsSet), never their values.
func (e *Endpoints) CreateForDestination(ctx context.Context, destination DestinationRequest, events []string, opts ...EndpointOption) (*EndpointWithSecret, error) {
	return e.create(ctx, generated.CreateEndpointRequest{Destination: &destination}, events, opts)
}

func (e *Endpoints) create(ctx context.Context, body generated.CreateEndpointRequest, events []string, opts []EndpointOption) (*EndpointWithSecret, error) {
	if events != nil {
		body.Events = &events
	}
	for _, opt := range opts {
		opt(&body)
	}
	resp, err := e.api.PostApiV1WebhooksEndpointsWithResponse(ctx, body)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON201)
}

func (e *Endpoints) Get(ctx context.Context, id string) (*Endpoint, error) {
	resp, err := e.api.GetApiV1WebhooksEndpointsIdWithResponse(ctx, id)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// Update changes the fields of change that are set; a TenantId moves the endpoint to that tenant (its waiting
// deliveries end cancelled).
func (e *Endpoints) Update(ctx context.Context, id string, change UpdateEndpoint) (*Endpoint, error) {
	resp, err := e.api.PatchApiV1WebhooksEndpointsIdWithResponse(ctx, id, change)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// MoveToAccount makes a tenant's endpoint one of the account's own (tenant_id null, which Update cannot send);
// its waiting deliveries end cancelled.
func (e *Endpoints) MoveToAccount(ctx context.Context, id string) (*Endpoint, error) {
	resp, err := e.api.PatchApiV1WebhooksEndpointsIdWithBodyWithResponse(ctx, id, "application/json", bytes.NewReader([]byte(`{"tenant_id":null}`)))
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

func (e *Endpoints) Delete(ctx context.Context, id string) error {
	resp, err := e.api.DeleteApiV1WebhooksEndpointsIdWithResponse(ctx, id)
	if err != nil {
		return err
	}
	_, err = result[struct{}](nil, resp.HTTPResponse, resp.Body)
	return err
}

// Secret reads the endpoint's current signing secret.
func (e *Endpoints) Secret(ctx context.Context, id string) (string, error) {
	resp, err := e.api.GetApiV1WebhooksEndpointsIdSecretWithResponse(ctx, id)
	if err != nil {
		return "", err
	}
	secret, err := result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
	if err != nil {
		return "", err
	}
	return secret.Secret, nil
}

// RotateSecret makes a new signing secret and returns it; the old one keeps signing for gracePeriod
// (nil: the platform's default).
func (e *Endpoints) RotateSecret(ctx context.Context, id string, gracePeriod *time.Duration) (string, error) {
	body := generated.RotateSecretRequest{}
	if gracePeriod != nil {
		body.GracePeriodSeconds = ptr(int(gracePeriod.Seconds()))
	}
	resp, err := e.api.PostApiV1WebhooksEndpointsIdSecretRotateWithResponse(ctx, id, body)
	if err != nil {
		return "", err
	}
	secret, err := result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
	if err != nil {
		return "", err
	}
	return secret.Secret, nil
}

// Recover delivers again every event since `since` whose delivery to this endpoint failed.
func (e *Endpoints) Recover(ctx context.Context, id string, since time.Time) (*Recovery, error) {
	resp, err := e.api.PostApiV1WebhooksEndpointsIdRecoverWithResponse(ctx, id, generated.RecoverRequest{Since: since})
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON202)
}

// Pause holds the endpoint's deliveries until Resume.
func (e *Endpoints) Pause(ctx context.Context, id string) (*Endpoint, error) {
	resp, err := e.api.PostApiV1WebhooksEndpointsIdPauseWithResponse(ctx, id)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

func (e *Endpoints) Resume(ctx context.Context, id string) (*Endpoint, error) {
	resp, err := e.api.PostApiV1WebhooksEndpointsIdResumeWithResponse(ctx, id)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// RetryNow wakes a batch of the endpoint's waiting deliveries from cursor ("" for the first); the answer's NextCursor continues.
func (e *Endpoints) RetryNow(ctx context.Context, id string, cursor string) (*RetryNowResult, error) {
	resp, err := e.api.PostApiV1WebhooksEndpointsIdRetryNowWithResponse(ctx, id, generated.RetryNowRequest{Cursor: nonZero(cursor)})
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// EndpointFilter narrows a listing of endpoints.
type EndpointFilter func(*generated.GetApiV1WebhooksEndpointsParams)

// OfTenant lists only the endpoints of one tenant.
func OfTenant(tenantID string) EndpointFilter {
	return func(p *generated.GetApiV1WebhooksEndpointsParams) { p.TenantId = &tenantID }
}

// Page reads one page of endpoints from cursor ("" for the first); pageSize 0 means PageSize.
func (e *Endpoints) Page(ctx context.Context, cursor string, pageSize int, filters ...EndpointFilter) (*EndpointPage, error) {
	if pageSize == 0 {
		pageSize = PageSize
	}
	params := &generated.GetApiV1WebhooksEndpointsParams{Limit: &pageSize, Cursor: nonZero(cursor)}
	for _, filter := range filters {
		filter(params)
	}
	resp, err := e.api.GetApiV1WebhooksEndpointsWithResponse(ctx, params)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// List yields every endpoint, page after page; it stops at the first error, which it yields.
func (e *Endpoints) List(ctx context.Context, pageSize int, filters ...EndpointFilter) iter.Seq2[Endpoint, error] {
	return pages(func(cursor string) ([]Endpoint, *string, error) {
		page, err := e.Page(ctx, cursor, pageSize, filters...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

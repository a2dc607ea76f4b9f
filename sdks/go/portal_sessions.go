package platform

import (
	"context"

	"github.com/devops-platform/platform-go/generated"
)

// PortalSessions makes and revokes the short-lived tokens of tenants' people, with the account's key (a
// session's own token gets 403 here).
type PortalSessions struct {
	api *generated.ClientWithResponses
}

// Create makes a token for one tenant (ExpiresInSeconds: default 1 h, at most 24 h), shown only here.
// NewClient(baseURL, session.Token) then sees and changes only that tenant's endpoints and events; a
// read-only one gets an *ApiError 403 portal_read_only on every change.
func (p *PortalSessions) Create(ctx context.Context, session NewPortalSession) (*PortalSession, error) {
	resp, err := p.api.PostApiV1WebhooksPortalSessionsWithResponse(ctx, session)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON201)
}

// RevokeAll ends every session of the account at once (401 invalid_portal_token from then on) and answers how many.
func (p *PortalSessions) RevokeAll(ctx context.Context) (int, error) {
	resp, err := p.api.DeleteApiV1WebhooksPortalSessionsWithResponse(ctx)
	if err != nil {
		return 0, err
	}
	revoked, err := result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
	if err != nil {
		return 0, err
	}
	return revoked.Revoked, nil
}

package platform

import (
	"context"
	"crypto/rand"
	"fmt"
	"iter"
	"strconv"

	"github.com/devops-platform/platform-go/generated"
)

// PageSize is how many items a list iterator asks for per page (the platform's maximum).
const PageSize = 100

// Events sends events and reads them back with their deliveries.
type Events struct {
	api *generated.ClientWithResponses
}

// SendOption configures one Send.
type SendOption func(*generated.SendEventRequest)

// WithIdempotencyKey sends key instead of a random one: repeats of the same key within 24 h return the original event.
func WithIdempotencyKey(key string) SendOption {
	return func(r *generated.SendEventRequest) { r.IdempotencyKey = &key }
}

// WithTenant sends the event for one tenant: it reaches only that tenant's endpoints. Without it, an event
// reaches only the account's endpoints that have no tenant.
func WithTenant(tenantID string) SendOption {
	return func(r *generated.SendEventRequest) { r.TenantId = &tenantID }
}

// Send ingests an event. Without WithIdempotencyKey a random key (a UUID) is made, and every retry of this call
// sends the same one: a send repeated after a time-out returns the original event, never a second one.
func (e *Events) Send(ctx context.Context, eventType string, data map[string]any, opts ...SendOption) (*SentEvent, error) {
	body := generated.SendEventRequest{Type: eventType, Data: data}
	for _, opt := range opts {
		opt(&body)
	}
	if body.IdempotencyKey == nil {
		key, err := uuid4()
		if err != nil {
			return nil, err
		}
		body.IdempotencyKey = &key
	}
	if body.Data == nil {
		body.Data = map[string]any{}
	}
	resp, err := e.api.PostApiV1WebhooksEventsWithResponse(context.WithValue(ctx, safeToRepeatKey{}, true), body)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON202, resp.JSON200)
}

// Get reads an event with its deliveries (one per matching endpoint) and their attempts.
func (e *Events) Get(ctx context.Context, eventID int) (*EventWithDeliveries, error) {
	resp, err := e.api.GetApiV1WebhooksEventsEventIdWithResponse(ctx, strconv.Itoa(eventID))
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// ListEvents filters and sizes a listing; every field is optional.
type ListEvents struct {
	Type     string
	Status   string // "delivered", "failed" or "pending"
	TenantID string // only the events sent for this tenant
	PageSize int
}

// Page reads one page of events (newest first) from cursor ("" for the first); its NextCursor continues.
func (e *Events) Page(ctx context.Context, cursor string, filter ListEvents) (*EventPage, error) {
	params := &generated.GetApiV1WebhooksEventsParams{Limit: nonZero(filter.PageSize), Cursor: nonZero(cursor), Type: nonZero(filter.Type), TenantId: nonZero(filter.TenantID)}
	if params.Limit == nil {
		params.Limit = ptr(PageSize)
	}
	if filter.Status != "" {
		params.Status = ptr(generated.EventStatus(filter.Status))
	}
	resp, err := e.api.GetApiV1WebhooksEventsWithResponse(ctx, params)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// List yields every event (newest first), page after page; it stops at the first error, which it yields.
func (e *Events) List(ctx context.Context, filter ListEvents) iter.Seq2[Event, error] {
	return pages(func(cursor string) ([]Event, *string, error) {
		page, err := e.Page(ctx, cursor, filter)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// pages walks a cursor-paged listing.
func pages[T any](read func(cursor string) ([]T, *string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		cursor := ""
		for {
			items, next, err := read(cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
			if next == nil || *next == "" {
				return
			}
			cursor = *next
		}
	}
}

func uuid4() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

package platform

import (
	"context"
	"iter"

	"github.com/devops-platform/platform-go/generated"
)

// EventTypes manages the account's event-type catalog. A send whose data does not match its type's schema fails
// with an *ApiError 422 schema_mismatch whose Details name the failing paths.
type EventTypes struct {
	api *generated.ClientWithResponses
}

// Create registers a type (with an optional JSON Schema, draft 2020-12, for its data, and an example); a name
// already in the catalog fails with 409 event_type_exists.
func (e *EventTypes) Create(ctx context.Context, eventType NewEventType) (*EventType, error) {
	resp, err := e.api.PostApiV1WebhooksEventTypesWithResponse(ctx, eventType)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON201)
}

func (e *EventTypes) Get(ctx context.Context, name string) (*EventType, error) {
	resp, err := e.api.GetApiV1WebhooksEventTypesNameWithResponse(ctx, name)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// Update changes the fields of change that are set; 409 event_type_changed when another call changed the schema
// or example this change was checked against.
func (e *EventTypes) Update(ctx context.Context, name string, change UpdateEventType) (*EventType, error) {
	resp, err := e.api.PatchApiV1WebhooksEventTypesNameWithResponse(ctx, name, change)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// Delete removes the type: its events are accepted unchecked from then on.
func (e *EventTypes) Delete(ctx context.Context, name string) error {
	resp, err := e.api.DeleteApiV1WebhooksEventTypesNameWithResponse(ctx, name)
	if err != nil {
		return err
	}
	_, err = result[struct{}](nil, resp.HTTPResponse, resp.Body)
	return err
}

// Page reads one page of types, by name, from cursor ("" for the first); pageSize 0 means PageSize.
func (e *EventTypes) Page(ctx context.Context, cursor string, pageSize int) (*EventTypePage, error) {
	if pageSize == 0 {
		pageSize = PageSize
	}
	resp, err := e.api.GetApiV1WebhooksEventTypesWithResponse(ctx, &generated.GetApiV1WebhooksEventTypesParams{Limit: &pageSize, Cursor: nonZero(cursor)})
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON200)
}

// List yields every type, page after page; it stops at the first error, which it yields.
func (e *EventTypes) List(ctx context.Context, pageSize int) iter.Seq2[EventType, error] {
	return pages(func(cursor string) ([]EventType, *string, error) {
		page, err := e.Page(ctx, cursor, pageSize)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

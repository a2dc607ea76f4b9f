package platform

import (
	"context"
	"strconv"

	"github.com/devops-platform/platform-go/generated"
)

// Deliveries acts on one event's delivery to one endpoint; read them with Events.Get.
type Deliveries struct {
	api *generated.ClientWithResponses
}

// Retry starts a new round of attempts for a delivery that failed or was cancelled.
func (d *Deliveries) Retry(ctx context.Context, eventID int, endpointID string) (*Delivery, error) {
	resp, err := d.api.PostApiV1WebhooksEventsEventIdDeliveriesEndpointIdRetryWithResponse(ctx, strconv.Itoa(eventID), endpointID)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON202)
}

// RetryNow makes the waiting delivery's next attempt now.
func (d *Deliveries) RetryNow(ctx context.Context, eventID int, endpointID string) (*Delivery, error) {
	resp, err := d.api.PostApiV1WebhooksEventsEventIdDeliveriesEndpointIdRetryNowWithResponse(ctx, strconv.Itoa(eventID), endpointID)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON202)
}

// Cancel stops the delivery's attempts.
func (d *Deliveries) Cancel(ctx context.Context, eventID int, endpointID string) (*Delivery, error) {
	resp, err := d.api.PostApiV1WebhooksEventsEventIdDeliveriesEndpointIdCancelWithResponse(ctx, strconv.Itoa(eventID), endpointID)
	if err != nil {
		return nil, err
	}
	return result(nil, resp.HTTPResponse, resp.Body, resp.JSON202)
}

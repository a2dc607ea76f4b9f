// Package platform is the senders' SDK of the webhook platform: send events (idempotently, with the spec's
// 429/503 retries), manage endpoints, tenants, portal sessions and the event-type catalog, read deliveries. It is a thin layer over the client that oapi-codegen
// generates from the platform's OpenAPI document (package generated).
package platform

import (
	"context"
	"net/http"
	"strings"

	"github.com/devops-platform/platform-go/generated"
)

// The platform's objects, as the OpenAPI document describes them.
type (
	SentEvent           = generated.SentEvent
	Event               = generated.Event
	EventPage           = generated.EventPage
	EventWithDeliveries = generated.EventWithDeliveries
	Delivery            = generated.Delivery
	Attempt             = generated.Attempt
	Endpoint            = generated.Endpoint
	EndpointWithSecret  = generated.EndpointWithSecret
	EndpointPage        = generated.EndpointPage
	UpdateEndpoint      = generated.UpdateEndpointRequest
	Recovery            = generated.Recovery
	RetryNowResult      = generated.RetryNowResult
	EventType           = generated.EventType
	EventTypePage       = generated.EventTypePage
	NewEventType        = generated.CreateEventTypeRequest
	UpdateEventType     = generated.UpdateEventTypeRequest
	Tenant              = generated.Tenant
	TenantPage          = generated.TenantPage
	PortalSession       = generated.PortalSession
	NewPortalSession    = generated.CreatePortalSessionRequest
	// A broker endpoint's destination as read back (type, config, the credential fields set), and as sent.
	Destination         = generated.Destination
	DestinationRequest  = generated.DestinationRequest
	RabbitMqDestination = generated.RabbitMqDestination
	KafkaDestination    = generated.KafkaDestination
	SqsDestination      = generated.SqsDestination
)

// The credentials of a broker destination, write-only: RabbitMQ's, and Kafka's with SASL (UserPassword); SQS's.
type (
	UserPassword = struct {
		Password *string `json:"password,omitempty"`
		Username *string `json:"username,omitempty"`
	}
	SqsCredentials = struct {
		AccessKeyId     *string `json:"access_key_id,omitempty"`
		SecretAccessKey *string `json:"secret_access_key,omitempty"`
		SessionToken    *string `json:"session_token,omitempty"`
	}
)

// Client calls the platform's API with an API key or a portal session's token. Every call takes a context: cancelling it ends the call
// and any wait between its retries.
type Client struct {
	Events         *Events
	Endpoints      *Endpoints
	Deliveries     *Deliveries
	EventTypes     *EventTypes
	Tenants        *Tenants
	PortalSessions *PortalSessions
}

// NewClient is a client of the platform at baseURL (e.g. "https://api.example.com") with a `weh` API key, or with a
// portal session's `whpt_` token (PortalSessions.Create), which sees and changes only its tenant's records.
func NewClient(baseURL, apiKey string, opts ...Option) (*Client, error) {
	s := defaults()
	for _, opt := range opts {
		opt(&s)
	}
	httpClient := s.httpClient
	if httpClient == nil {
		httpClient = &http.Client{Timeout: s.timeout}
	} else if httpClient.Timeout == 0 {
		copied := *httpClient
		copied.Timeout = s.timeout
		httpClient = &copied
	}
	doer := &retryingDoer{next: httpClient, maxRetries: s.maxRetries, maxRetryWait: s.maxRetryWait, sleep: s.sleep, random: s.random}
	authorize := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+apiKey)
		return nil
	}
	api, err := generated.NewClientWithResponses(strings.TrimRight(baseURL, "/"), generated.WithHTTPClient(doer), generated.WithRequestEditorFn(authorize))
	if err != nil {
		return nil, err
	}
	return &Client{
		Events: &Events{api}, Endpoints: &Endpoints{api}, Deliveries: &Deliveries{api}, EventTypes: &EventTypes{api},
		Tenants: &Tenants{api}, PortalSessions: &PortalSessions{api},
	}, nil
}

// result is the answer's value for a success, an *ApiError otherwise.
func result[T any](err error, resp *http.Response, body []byte, values ...*T) (*T, error) {
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, newApiError(resp, body)
	}
	for _, v := range values {
		if v != nil {
			return v, nil
		}
	}
	return new(T), nil
}

func ptr[T any](v T) *T { return &v }

// nonZero is nil for the zero value: an absent parameter.
func nonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

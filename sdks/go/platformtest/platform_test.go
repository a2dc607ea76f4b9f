// Scenarios against a real platform (test/integration/sdk-go.test.ts starts one and sets the environment):
// PLATFORM_URL, PLATFORM_API_KEY (an unlimited account), PLATFORM_FREE_API_KEY (a Free-tier account, for the
// 429), TLS_CERT and TLS_KEY (the certificate the platform trusts, served by the end-to-end test's receiver).
package platformtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	platform "github.com/devops-platform/platform-go"
	"github.com/devops-platform/platform-go/generated"
	webhooks "github.com/devops-platform/webhooks-go"
)

const placeholderURL = "https://127.0.0.1:9/hook"

func env(t *testing.T, name string) string {
	t.Helper()
	value := os.Getenv(name)
	if value == "" {
		t.Skipf("%s is not set: run test/integration/sdk-go.test.ts", name)
	}
	return value
}

func newClient(t *testing.T, key string, opts ...platform.Option) *platform.Client {
	t.Helper()
	c, err := platform.NewClient(env(t, "PLATFORM_URL"), env(t, key), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func unique(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + "." + hex.EncodeToString(b)
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// eventually polls check until it is true, for at most a minute.
func eventually(t *testing.T, check func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !check(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 60 s")
		}
	}
}

// receiver is an HTTPS receiver written with the Go receiver library (receivers/go): 200 for a verified delivery, 401 otherwise.
type receiver struct {
	URL      string
	mu       sync.Mutex
	secrets  []string
	verified []*webhooks.Verified
	refused  []error
}

func startReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{}
	listener := must[net.Listener](t)(net.Listen("tcp", "127.0.0.1:0"))
	server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		verified, err := webhooks.Verify(body, req.Header, webhooks.Options{Secrets: r.secrets})
		if err != nil {
			r.refused = append(r.refused, err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		r.verified = append(r.verified, verified)
	})}
	go server.ServeTLS(listener, env(t, "TLS_CERT"), env(t, "TLS_KEY"))
	t.Cleanup(func() { server.Close() })
	r.URL = "https://" + listener.Addr().String() + "/hook"
	return r
}

func (r *receiver) trust(secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets = append(r.secrets, secret)
}

func (r *receiver) results() ([]*webhooks.Verified, []error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.verified), slices.Clone(r.refused)
}

func TestRegisterAnEndpointThenReadUpdateListAndDeleteIt(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	created := must[*platform.EndpointWithSecret](t)(c.Endpoints.Create(ctx, placeholderURL, []string{"order.created"}))
	if len(created.Secret) < 7 || created.Secret[:6] != "whsec_" {
		t.Fatalf("secret %q", created.Secret)
	}
	if got := must[*platform.Endpoint](t)(c.Endpoints.Get(ctx, created.Id)); got.Url == nil || *got.Url != placeholderURL {
		t.Fatalf("url %v", got.Url)
	}
	events := []string{"order.created", "order.paid"}
	updated := must[*platform.Endpoint](t)(c.Endpoints.Update(ctx, created.Id, platform.UpdateEndpoint{Events: &events}))
	if !slices.Equal(updated.Events, events) {
		t.Fatalf("events %v", updated.Events)
	}
	var ids []string
	for endpoint, err := range c.Endpoints.List(ctx, 1) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, endpoint.Id)
	}
	if !slices.Contains(ids, created.Id) {
		t.Fatalf("%s not listed in %v", created.Id, ids)
	}
	if err := c.Endpoints.Delete(ctx, created.Id); err != nil {
		t.Fatal(err)
	}
	_, err := c.Endpoints.Get(ctx, created.Id)
	var apiErr *platform.ApiError
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != generated.ErrorCodeNotFound {
		t.Fatalf("%v", err)
	}
}

func TestRegisterARabbitMqEndpointThenReadItBackWithoutItsCredentials(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	username, password := unique("sdk-go-user"), unique("sdk-go-password")
	// No broker listens there: registration checks the destination's rules and host (the test platform allows private networks), not the broker.
	rabbit := platform.RabbitMqDestination{Type: generated.RabbitMqDestinationTypeRabbitmq}
	rabbit.Config.Uri = "amqps://127.0.0.1:5671/prod"
	rabbit.Config.Exchange = "webhooks"
	rabbit.Credentials = &platform.UserPassword{Username: &username, Password: &password}
	var destination platform.DestinationRequest
	if err := destination.FromRabbitMqDestination(rabbit); err != nil {
		t.Fatal(err)
	}
	created := must[*platform.EndpointWithSecret](t)(c.Endpoints.CreateForDestination(ctx, destination, []string{"order.created"}))
	t.Cleanup(func() { _ = c.Endpoints.Delete(ctx, created.Id) })
	got := must[*platform.Endpoint](t)(c.Endpoints.Get(ctx, created.Id))
	if got.Url != nil || got.Destination == nil || got.Destination.Type != generated.DestinationTypeRabbitmq {
		t.Fatalf("url %v, destination %+v", got.Url, got.Destination)
	}
	config := got.Destination.Config
	if config["uri"] != "amqps://127.0.0.1:5671/prod" || config["exchange"] != "webhooks" || config["routing_key"] != "" {
		t.Fatalf("config %v", config)
	}
	if !slices.Equal(got.Destination.CredentialsSet, []string{"password", "username"}) {
		t.Fatalf("credentials_set %v", got.Destination.CredentialsSet)
	}
	for _, answer := range []any{created, got} {
		text := must[[]byte](t)(json.Marshal(answer))
		if strings.Contains(string(text), password) || strings.Contains(string(text), username) {
			t.Fatalf("a credential in the answer: %s", text)
		}
	}
}

func TestRegisterAnEventTypeWithASchemaThenASendThatDoesNotMatchItIsRefused(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	name := unique("invoice.paid")
	description := "An invoice was paid."
	schema := map[string]interface{}{"type": "object", "properties": map[string]any{"amount": map[string]any{"type": "integer", "minimum": 0}}, "required": []any{"amount"}}
	created := must[*platform.EventType](t)(c.EventTypes.Create(ctx, platform.NewEventType{Name: name, Description: &description, Schema: &schema}))
	if created.Name != name || created.Schema == nil || (*created.Schema)["type"] != "object" {
		t.Fatalf("%+v", created)
	}
	var apiErr *platform.ApiError
	if _, err := c.EventTypes.Create(ctx, platform.NewEventType{Name: name}); !errors.As(err, &apiErr) || apiErr.Status != 409 || apiErr.Code != generated.ErrorCodeEventTypeExists {
		t.Fatalf("%v", err)
	}
	_, err := c.Events.Send(ctx, name, map[string]any{"amount": -1})
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || apiErr.Code != generated.ErrorCodeSchemaMismatch || len(apiErr.Details) != 1 || apiErr.Details[0].Path != "data.amount" {
		t.Fatalf("%v %+v", err, apiErr)
	}
	must[*platform.SentEvent](t)(c.Events.Send(ctx, name, map[string]any{"amount": 1}))

	changed := "Paid in full."
	updated := must[*platform.EventType](t)(c.EventTypes.Update(ctx, name, platform.UpdateEventType{Description: &changed}))
	if updated.Description != changed || updated.Schema == nil {
		t.Fatalf("%+v", updated)
	}
	var names []string
	for eventType, err := range c.EventTypes.List(ctx, 1) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, eventType.Name)
	}
	if !slices.Contains(names, name) {
		t.Fatalf("%s not listed in %v", name, names)
	}
	if err := c.EventTypes.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := c.EventTypes.Get(ctx, name); !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != generated.ErrorCodeNotFound {
		t.Fatalf("%v", err)
	}
	must[*platform.SentEvent](t)(c.Events.Send(ctx, name, map[string]any{"amount": -1}))
}

// quietEndpoint is an endpoint of tenant subscribed to a type no event here has: a tenant to count, list and scope, with no delivery made.
func quietEndpoint(t *testing.T, c *platform.Client, tenant string) *platform.EndpointWithSecret {
	t.Helper()
	return must[*platform.EndpointWithSecret](t)(c.Endpoints.Create(context.Background(), "https://example.com/hooks/tenant", []string{unique("quiet")}, platform.WithEndpointTenant(tenant)))
}

func deleteTenants(t *testing.T, c *platform.Client, tenants ...string) {
	t.Helper()
	for _, tenant := range tenants {
		if err := c.Tenants.Delete(context.Background(), tenant); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAnEventSentForTenantAReachesAsEndpointOnlyNotTenantBs(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	r := startReceiver(t)
	tenantA, tenantB, kind := unique("cus_a"), unique("cus_b"), unique("invoice.paid")
	endpointA := must[*platform.EndpointWithSecret](t)(c.Endpoints.Create(ctx, r.URL, []string{kind}, platform.WithEndpointTenant(tenantA)))
	endpointB := must[*platform.EndpointWithSecret](t)(c.Endpoints.Create(ctx, r.URL, []string{kind}, platform.WithEndpointTenant(tenantB)))
	r.trust(endpointA.Secret)
	r.trust(endpointB.Secret)
	if endpointA.TenantId == nil || *endpointA.TenantId != tenantA || endpointB.TenantId == nil || *endpointB.TenantId != tenantB {
		t.Fatalf("tenants %v %v", endpointA.TenantId, endpointB.TenantId)
	}
	sent := must[*platform.SentEvent](t)(c.Events.Send(ctx, kind, map[string]any{"invoice": "inv_a"}, platform.WithTenant(tenantA)))
	if sent.TenantId == nil || *sent.TenantId != tenantA || sent.Destinations != 1 {
		t.Fatalf("%+v", sent)
	}
	var read *platform.EventWithDeliveries
	eventually(t, func() bool {
		read = must[*platform.EventWithDeliveries](t)(c.Events.Get(ctx, sent.Id))
		return len(read.Deliveries) > 0 && read.Deliveries[0].Status == generated.DeliveryStatusSucceeded
	})
	if len(read.Deliveries) != 1 || read.Deliveries[0].EndpointId != endpointA.Id {
		t.Fatalf("deliveries %+v", read.Deliveries)
	}
	if verified, _ := r.results(); len(verified) != 1 || verified[0].ID != strconv.Itoa(sent.Id) {
		t.Fatalf("verified %+v", verified)
	}
	listed := func(tenant string) []int {
		var ids []int
		for event, err := range c.Events.List(ctx, platform.ListEvents{Type: kind, TenantID: tenant}) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, event.Id)
		}
		return ids
	}
	if a, b := listed(tenantA), listed(tenantB); !slices.Equal(a, []int{sent.Id}) || len(b) != 0 {
		t.Fatalf("listed for A %v, for B %v", a, b)
	}
	deleteTenants(t, c, tenantA, tenantB)
}

func TestTenantsAreListedWithTheirEndpointCountsAndATenantsEndpoints(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	tenantA, tenantB := unique("cus_a"), unique("cus_b")
	a1, a2 := quietEndpoint(t, c, tenantA), quietEndpoint(t, c, tenantA)
	quietEndpoint(t, c, tenantB)
	counts := map[string]int{}
	for tenant, err := range c.Tenants.List(ctx, 1) {
		if err != nil {
			t.Fatal(err)
		}
		counts[tenant.TenantId] = tenant.EndpointCount
	}
	if counts[tenantA] != 2 || counts[tenantB] != 1 {
		t.Fatalf("counts %v", counts)
	}
	var ofA []string
	for endpoint, err := range c.Endpoints.List(ctx, 0, platform.OfTenant(tenantA)) {
		if err != nil {
			t.Fatal(err)
		}
		ofA = append(ofA, endpoint.Id)
	}
	slices.Sort(ofA)
	if want := []string{a1.Id, a2.Id}; !slices.Equal(ofA, slices.Sorted(slices.Values(want))) {
		t.Fatalf("endpoints of A %v", ofA)
	}
	deleteTenants(t, c, tenantA, tenantB)
}

func TestDeletingATenantDeletesItsEndpointsAndAnotherTenantsStay(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	tenantA, tenantB := unique("cus_a"), unique("cus_b")
	endpointA, endpointB := quietEndpoint(t, c, tenantA), quietEndpoint(t, c, tenantB)
	deleteTenants(t, c, tenantA)
	var apiErr *platform.ApiError
	if _, err := c.Endpoints.Get(ctx, endpointA.Id); !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Fatalf("%v", err)
	}
	if got := must[*platform.Endpoint](t)(c.Endpoints.Get(ctx, endpointB.Id)); got.TenantId == nil || *got.TenantId != tenantB {
		t.Fatalf("%v", got.TenantId)
	}
	var tenants []string
	for tenant, err := range c.Tenants.List(ctx, 0) {
		if err != nil {
			t.Fatal(err)
		}
		tenants = append(tenants, tenant.TenantId)
	}
	if slices.Contains(tenants, tenantA) || !slices.Contains(tenants, tenantB) {
		t.Fatalf("tenants %v", tenants)
	}
	if err := c.Tenants.Delete(ctx, tenantA); !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != generated.ErrorCodeNotFound {
		t.Fatalf("%v", err)
	}
	deleteTenants(t, c, tenantB)
}

func TestAnEndpointMovesToAnotherTenantThenBackToTheAccount(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	tenantA, tenantB := unique("cus_a"), unique("cus_b")
	endpoint := quietEndpoint(t, c, tenantA)
	moved := must[*platform.Endpoint](t)(c.Endpoints.Update(ctx, endpoint.Id, platform.UpdateEndpoint{TenantId: &tenantB}))
	if moved.TenantId == nil || *moved.TenantId != tenantB {
		t.Fatalf("moved to %v", moved.TenantId)
	}
	if back := must[*platform.Endpoint](t)(c.Endpoints.MoveToAccount(ctx, endpoint.Id)); back.TenantId != nil {
		t.Fatalf("still of %q", *back.TenantId)
	}
	if err := c.Endpoints.Delete(ctx, endpoint.Id); err != nil {
		t.Fatal(err)
	}
}

func TestAPortalSessionsTokenAsTheClientsKeySeesAndChangesOnlyItsTenantsRecords(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	tenantA, tenantB := unique("cus_a"), unique("cus_b")
	endpointA, endpointB := quietEndpoint(t, c, tenantA), quietEndpoint(t, c, tenantB)
	session := must[*platform.PortalSession](t)(c.PortalSessions.Create(ctx, platform.NewPortalSession{TenantId: tenantA, ExpiresInSeconds: ptr(600)}))
	if !strings.HasPrefix(session.Token, "whpt_") || session.TenantId != tenantA || session.ReadOnly {
		t.Fatalf("%+v", session)
	}
	portal := must[*platform.Client](t)(platform.NewClient(env(t, "PLATFORM_URL"), session.Token))
	made := must[*platform.EndpointWithSecret](t)(portal.Endpoints.Create(ctx, "https://example.com/hooks/portal", []string{unique("quiet")}))
	if made.TenantId == nil || *made.TenantId != tenantA {
		t.Fatalf("made for %v", made.TenantId)
	}
	var seen []string
	for endpoint, err := range portal.Endpoints.List(ctx, 0) {
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, endpoint.Id)
	}
	slices.Sort(seen)
	if want := []string{made.Id, endpointA.Id}; !slices.Equal(seen, slices.Sorted(slices.Values(want))) {
		t.Fatalf("seen %v", seen)
	}
	var apiErr *platform.ApiError
	if _, err := portal.Endpoints.Get(ctx, endpointB.Id); !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != generated.ErrorCodeNotFound {
		t.Fatalf("%v", err)
	}
	deleteTenants(t, c, tenantA, tenantB)
}

func TestAReadOnlySessionsTokenReadsAndAChangeIsA403PortalReadOnly(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	tenant := unique("cus_a")
	endpoint := quietEndpoint(t, c, tenant)
	session := must[*platform.PortalSession](t)(c.PortalSessions.Create(ctx, platform.NewPortalSession{TenantId: tenant, ReadOnly: ptr(true)}))
	readOnly := must[*platform.Client](t)(platform.NewClient(env(t, "PLATFORM_URL"), session.Token))
	must[*platform.Endpoint](t)(readOnly.Endpoints.Get(ctx, endpoint.Id))
	changed := "changed"
	var apiErr *platform.ApiError
	if _, err := readOnly.Endpoints.Update(ctx, endpoint.Id, platform.UpdateEndpoint{Description: &changed}); !errors.As(err, &apiErr) || apiErr.Status != 403 || apiErr.Code != generated.ErrorCodePortalReadOnly {
		t.Fatalf("%v", err)
	}
	if got := must[*platform.Endpoint](t)(c.Endpoints.Get(ctx, endpoint.Id)); got.Description != endpoint.Description {
		t.Fatalf("description %q", got.Description)
	}
	deleteTenants(t, c, tenant)
}

func TestRevokingEverySessionEndsATokenAtOnce(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	tenant := unique("cus_a")
	endpoint := quietEndpoint(t, c, tenant)
	session := must[*platform.PortalSession](t)(c.PortalSessions.Create(ctx, platform.NewPortalSession{TenantId: tenant}))
	portal := must[*platform.Client](t)(platform.NewClient(env(t, "PLATFORM_URL"), session.Token))
	must[*platform.Endpoint](t)(portal.Endpoints.Get(ctx, endpoint.Id))
	if revoked := must[int](t)(c.PortalSessions.RevokeAll(ctx)); revoked < 1 {
		t.Fatalf("revoked %d", revoked)
	}
	var apiErr *platform.ApiError
	if _, err := portal.Endpoints.Get(ctx, endpoint.Id); !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Code != generated.ErrorCodeInvalidPortalToken {
		t.Fatalf("%v", err)
	}
	deleteTenants(t, c, tenant)
}

func ptr[T any](v T) *T { return &v }

func TestSendEvents(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	kind := unique("order.created")
	first := must[*platform.SentEvent](t)(c.Events.Send(ctx, kind, map[string]any{"order": "ord_1", "total": 12.5}))
	second := must[*platform.SentEvent](t)(c.Events.Send(ctx, kind, map[string]any{"order": "ord_2"}))
	if first.Id == second.Id || first.Type != kind {
		t.Fatalf("%+v %+v", first, second)
	}
	read := must[*platform.EventWithDeliveries](t)(c.Events.Get(ctx, first.Id))
	if read.Data["order"] != "ord_1" || read.Data["total"] != 12.5 {
		t.Fatalf("data %v", read.Data)
	}
}

func TestARepeatedIdempotencyKeyReturnsTheOriginalEvent(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	key := unique("key")
	first := must[*platform.SentEvent](t)(c.Events.Send(ctx, "order.created", map[string]any{"n": 1}, platform.WithIdempotencyKey(key)))
	again := must[*platform.SentEvent](t)(c.Events.Send(ctx, "order.created", map[string]any{"n": 1}, platform.WithIdempotencyKey(key)))
	if again.Id != first.Id {
		t.Fatalf("%d then %d", first.Id, again.Id)
	}
}

// answerLostOnce lets the first send reach the platform, then loses its answer (a time-out): the platform stored
// the event, the caller cannot know.
type answerLostOnce struct {
	mu    sync.Mutex
	sends int
}

func (a *answerLostOnce) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost || req.URL.Path != "/api/v1/webhooks/events" {
		return resp, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sends++
	if a.sends == 1 {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil, errors.New("read: i/o timeout (the answer was lost)")
	}
	return resp, nil
}

func TestASendRetriedAfterATimeOutResultsInOneEvent(t *testing.T) {
	ctx := context.Background()
	kind := unique("order.created")
	lossy := &answerLostOnce{}
	var waits []time.Duration
	sleep := func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	c := newClient(t, "PLATFORM_API_KEY", platform.WithHTTPClient(&http.Client{Transport: lossy}), platform.WithSleep(sleep))
	event := must[*platform.SentEvent](t)(c.Events.Send(ctx, kind, map[string]any{"order": "ord_1"}))
	if lossy.sends != 2 || len(waits) != 1 {
		t.Fatalf("%d sends, waits %v", lossy.sends, waits)
	}
	var ids []int
	for listed, err := range newClient(t, "PLATFORM_API_KEY").Events.List(ctx, platform.ListEvents{Type: kind}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, listed.Id)
	}
	if !slices.Equal(ids, []int{event.Id}) {
		t.Fatalf("events %v, want only %d", ids, event.Id)
	}
}

func TestPageThroughEvents(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	kind := unique("page.test")
	var sent []int
	for i := range 5 {
		sent = append(sent, must[*platform.SentEvent](t)(c.Events.Send(ctx, kind, map[string]any{"i": i})).Id)
	}
	var paged []int
	pages := 0
	for cursor := ""; ; {
		page := must[*platform.EventPage](t)(c.Events.Page(ctx, cursor, platform.ListEvents{Type: kind, PageSize: 2}))
		pages++
		for _, e := range page.Data {
			paged = append(paged, e.Id)
		}
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	var listed []int
	for e, err := range c.Events.List(ctx, platform.ListEvents{Type: kind, PageSize: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, e.Id)
	}
	slices.Sort(sent)
	sortedPaged := slices.Sorted(slices.Values(paged))
	if pages != 3 || !slices.Equal(sortedPaged, sent) || !slices.Equal(listed, paged) {
		t.Fatalf("%d pages %v, listed %v, sent %v", pages, paged, listed, sent)
	}
}

func TestReadADelivery(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	r := startReceiver(t)
	kind := unique("delivery.read")
	endpoint := must[*platform.EndpointWithSecret](t)(c.Endpoints.Create(ctx, r.URL, []string{kind}))
	r.trust(endpoint.Secret)
	event := must[*platform.SentEvent](t)(c.Events.Send(ctx, kind, map[string]any{"order": "ord_9"}))
	var delivery platform.Delivery
	eventually(t, func() bool {
		read := must[*platform.EventWithDeliveries](t)(c.Events.Get(ctx, event.Id))
		if len(read.Deliveries) == 1 && read.Deliveries[0].Status == generated.DeliveryStatusSucceeded {
			delivery = read.Deliveries[0]
			return true
		}
		return false
	})
	if delivery.EndpointId != endpoint.Id || delivery.Attempts[0].StatusCode == nil || *delivery.Attempts[0].StatusCode != 200 {
		t.Fatalf("%+v", delivery)
	}
	c.Endpoints.Delete(ctx, endpoint.Id)
}

func TestRotateASecret(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	endpoint := must[*platform.EndpointWithSecret](t)(c.Endpoints.Create(ctx, placeholderURL, nil))
	noGrace := time.Duration(0)
	rotated := must[string](t)(c.Endpoints.RotateSecret(ctx, endpoint.Id, &noGrace))
	if rotated == endpoint.Secret || rotated[:6] != "whsec_" {
		t.Fatalf("rotated %q from %q", rotated, endpoint.Secret)
	}
	if current := must[string](t)(c.Endpoints.Secret(ctx, endpoint.Id)); current != rotated {
		t.Fatalf("current %q, rotated %q", current, rotated)
	}
	c.Endpoints.Delete(ctx, endpoint.Id)
}

func TestA429OfTheFreeTierBurstIsWaitedOutWithin5Retries(t *testing.T) {
	ctx := context.Background()
	impatient := newClient(t, "PLATFORM_FREE_API_KEY", platform.WithMaxRetries(0))
	limited := false
	for range 100 {
		_, err := impatient.Events.Page(ctx, "", platform.ListEvents{PageSize: 1})
		var apiErr *platform.ApiError
		if errors.As(err, &apiErr) {
			if apiErr.Status != 429 || apiErr.Code != generated.ErrorCodeRateLimitExceeded {
				t.Fatalf("%v", err)
			}
			limited = true
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !limited {
		t.Fatal("the Free tier's burst never ran out")
	}
	var waits []time.Duration
	sleep := func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		time.Sleep(d)
		return nil
	}
	patient := newClient(t, "PLATFORM_FREE_API_KEY", platform.WithSleep(sleep))
	event := must[*platform.SentEvent](t)(patient.Events.Send(ctx, "order.created", map[string]any{"tier": "free"}))
	if event.Id == 0 || len(waits) < 1 || len(waits) > 5 {
		t.Fatalf("event %+v after waits %v", event, waits)
	}
}

func TestEndToEndADeliverySentWithTheSDKIsVerifiedByTheReceiverLibrary(t *testing.T) {
	ctx := context.Background()
	c := newClient(t, "PLATFORM_API_KEY")
	r := startReceiver(t)
	kind := unique("e2e")
	endpoint := must[*platform.EndpointWithSecret](t)(c.Endpoints.Create(ctx, r.URL, []string{kind}))
	r.trust(endpoint.Secret)
	event := must[*platform.SentEvent](t)(c.Events.Send(ctx, kind, map[string]any{"hello": "Zoë 🚀"}))
	eventually(t, func() bool { verified, _ := r.results(); return len(verified) > 0 })
	verified, refused := r.results()
	if len(verified) != 1 || verified[0].ID != strconv.Itoa(event.Id) || len(refused) != 0 {
		t.Fatalf("verified %+v, refused %v", verified, refused)
	}
	c.Endpoints.Delete(ctx, endpoint.Id)
}

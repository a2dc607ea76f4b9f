package platform

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/devops-platform/platform-go/generated"
)

const sentEvent = `{"id":7,"type":"order.created","timestamp":1,"idempotency_key":"k","destinations":0}`

// script answers the n-th request with answers[n] (the last one repeats) and keeps every request body.
type script struct {
	answers []func() (*http.Response, error)
	bodies  []string
}

func (s *script) RoundTrip(req *http.Request) (*http.Response, error) {
	body := []byte{}
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	s.bodies = append(s.bodies, string(body))
	return s.answers[min(len(s.bodies), len(s.answers))-1]()
}

func answer(status int, retryAfter string, body string) func() (*http.Response, error) {
	return func() (*http.Response, error) {
		h := http.Header{"Content-Type": {"application/json"}}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}, nil
	}
}

var (
	limited    = answer(429, "2", `{"error":"Rate limit exceeded","code":"rate_limit_exceeded","retry_after":2,"remaining":0,"request_id":"req_1"}`)
	overloaded = answer(503, "1", `{"error":"Overloaded","code":"overloaded"}`)
	accepted   = answer(202, "", sentEvent)
	timedOut   = func() (*http.Response, error) { return nil, errors.New("read: i/o timeout (the answer was lost)") }
)

// clientFor is a client whose calls go to s, whose waits are recorded in waits (and take no time).
func clientFor(t *testing.T, s *script, waits *[]time.Duration, random float64, opts ...Option) *Client {
	t.Helper()
	sleep := func(_ context.Context, d time.Duration) error { *waits = append(*waits, d); return nil }
	opts = append([]Option{WithHTTPClient(&http.Client{Transport: s}), WithSleep(sleep), WithRandom(func() float64 { return random })}, opts...)
	c, err := NewClient("http://platform.test", "svc_live_test", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func seconds(s ...float64) []time.Duration {
	out := make([]time.Duration, len(s))
	for i, v := range s {
		out[i] = time.Duration(v * float64(time.Second))
	}
	return out
}

func equal(t *testing.T, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("got %s, want %s", g, w)
	}
}

func keys(t *testing.T, s *script) []string {
	var out []string
	for _, b := range s.bodies {
		var body struct {
			IdempotencyKey string `json:"idempotency_key"`
		}
		if err := json.Unmarshal([]byte(b), &body); err != nil {
			t.Fatal(err)
		}
		out = append(out, body.IdempotencyKey)
	}
	return out
}

func TestA429IsRetriedAfterRetryAfterSecondsDoubledOnEachRetry(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited, limited, limited, accepted}}
	var waits []time.Duration
	event, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "order.created", map[string]any{"n": 1})
	if err != nil || event.Id != 7 {
		t.Fatalf("%v %v", event, err)
	}
	equal(t, waits, seconds(2, 4, 8))
}

func TestTheJitterAddsUpTo500MsFromTheRandomSource(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited, limited, accepted}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0.999999).Events.Send(context.Background(), "a", nil); err != nil {
		t.Fatal(err)
	}
	for i, base := range seconds(2, 4) {
		if jitter := waits[i] - base; jitter < 499*time.Millisecond || jitter > MaxJitter {
			t.Fatalf("wait %d: %v", i, waits[i])
		}
	}
}

func TestWithoutRetryAfterTheWaitStartsAtOneSecond(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){answer(429, "", `{"error":"x","code":"rate_limit_exceeded"}`), answer(429, "", `{}`), accepted}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil); err != nil {
		t.Fatal(err)
	}
	equal(t, waits, seconds(1, 2))
}

func TestAtMost5RetriesThenTheLastErrorIsReturnedWithItsCode(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited}}
	var waits []time.Duration
	_, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil)
	var apiErr *ApiError
	if !errors.As(err, &apiErr) {
		t.Fatalf("not an *ApiError: %v", err)
	}
	equal(t, len(s.bodies), 6)
	equal(t, waits, seconds(2, 4, 8, 16, 32))
	equal(t, []any{apiErr.Status, apiErr.Code, apiErr.RequestID, apiErr.RetryAfter}, []any{429, generated.ErrorCodeRateLimitExceeded, "req_1", 2})
}

func TestMaxRetriesIsAnOption(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0, WithMaxRetries(2)).Events.Send(context.Background(), "a", nil); err == nil {
		t.Fatal("no error")
	}
	equal(t, len(s.bodies), 3)
}

func TestARetryWhoseWaitWouldPassMaxRetryWaitIsNotMadeAndTheLastErrorIsReturnedAtOnce(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited}}
	var waits []time.Duration
	_, err := clientFor(t, s, &waits, 0, WithMaxRetryWait(10*time.Second)).Events.Send(context.Background(), "a", nil)
	var apiErr *ApiError
	if !errors.As(err, &apiErr) {
		t.Fatalf("not an *ApiError: %v", err)
	}
	equal(t, apiErr.Code, generated.ErrorCodeRateLimitExceeded)
	equal(t, waits, seconds(2, 4))
	equal(t, len(s.bodies), 3)
}

func TestAMaxRetryWaitOfZeroTurnsRetriesOff(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0, WithMaxRetryWait(0)).Events.Send(context.Background(), "a", nil); err == nil {
		t.Fatal("a send answered 429 succeeded")
	}
	equal(t, len(waits), 0)
	equal(t, len(s.bodies), 1)
}

func TestTheWaitsAfterATimedOutSendCountAgainstMaxRetryWaitToo(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){timedOut}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0, WithMaxRetryWait(2500*time.Millisecond)).Events.Send(context.Background(), "a", nil); err == nil {
		t.Fatal("a send that never got an answer succeeded")
	}
	equal(t, waits, seconds(1))
	equal(t, len(s.bodies), 2)
}

func TestASpentMonthlyQuotaIsNotRetriedItLastsUntilTheNextPeriod(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){answer(429, "500000", `{"error":"Monthly quota exceeded","code":"quota_exceeded","quota_limit":500,"quota_used":500,"reset_at":"2026-12-01T00:00:00.000Z"}`)}}
	var waits []time.Duration
	_, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil)
	var apiErr *ApiError
	if !errors.As(err, &apiErr) {
		t.Fatalf("not an *ApiError: %v", err)
	}
	equal(t, apiErr.Code, generated.ErrorCodeQuotaExceeded)
	equal(t, len(s.bodies), 1)
	equal(t, len(waits), 0)
}

func TestA503OverloadedShedIsRetried(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){overloaded, accepted}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil); err != nil {
		t.Fatal(err)
	}
	equal(t, waits, seconds(1))
}

func TestOtherErrorsAreNotRetried(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){answer(500, "", `{"error":"boom","code":"internal_error"}`)}}
	var waits []time.Duration
	_, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil)
	var apiErr *ApiError
	if !errors.As(err, &apiErr) || apiErr.Code != generated.ErrorCodeInternalError {
		t.Fatalf("%v", err)
	}
	equal(t, []int{len(s.bodies), len(waits)}, []int{1, 0})
}

func TestEveryRetryOfASendCarriesTheSameGeneratedIdempotencyKey(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited, overloaded, timedOut, answer(200, "", sentEvent)}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil); err != nil {
		t.Fatal(err)
	}
	sent := keys(t, s)
	if len(sent) != 4 || sent[0] != sent[1] || sent[1] != sent[2] || sent[2] != sent[3] || len(sent[0]) != 36 {
		t.Fatalf("keys %v", sent)
	}
}

func TestTwoSendsGetTwoDifferentKeys(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){accepted}}
	var waits []time.Duration
	c := clientFor(t, s, &waits, 0)
	c.Events.Send(context.Background(), "a", nil)
	c.Events.Send(context.Background(), "a", nil)
	if sent := keys(t, s); sent[0] == sent[1] {
		t.Fatalf("keys %v", sent)
	}
}

func TestAGivenIdempotencyKeyIsSentAsGiven(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited, accepted}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil, WithIdempotencyKey("order-1_created")); err != nil {
		t.Fatal(err)
	}
	equal(t, keys(t, s), []string{"order-1_created", "order-1_created"})
}

func TestASendThatTimedOutIsRetriedAfterOneSecond(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){timedOut, accepted}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil); err != nil {
		t.Fatal(err)
	}
	equal(t, waits, seconds(1))
}

func TestAnEndpointCreationThatTimedOutIsNotRepeated(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){timedOut}}
	var waits []time.Duration
	if _, err := clientFor(t, s, &waits, 0).Endpoints.Create(context.Background(), "https://example.com/hook", nil); err == nil {
		t.Fatal("no error")
	}
	equal(t, len(s.bodies), 1)
}

func TestACancelledContextEndsTheWaitBetweenRetries(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){limited}}
	ctx, cancel := context.WithCancel(context.Background())
	sleep := func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }
	c, _ := NewClient("http://platform.test", "k", WithHTTPClient(&http.Client{Transport: s}), WithSleep(sleep))
	if _, err := c.Events.Send(ctx, "a", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
	equal(t, len(s.bodies), 1)
}

func TestAnUnknownErrorCodeIsKeptAsItCame(t *testing.T) {
	s := &script{answers: []func() (*http.Response, error){answer(400, "", `{"error":"new","code":"some_future_code"}`)}}
	var waits []time.Duration
	_, err := clientFor(t, s, &waits, 0).Events.Send(context.Background(), "a", nil)
	var apiErr *ApiError
	if !errors.As(err, &apiErr) || apiErr.Code != "some_future_code" {
		t.Fatalf("%v", err)
	}
}

func TestPagingFollowsNextCursorUntilItIsNull(t *testing.T) {
	item := func(id int) string {
		return `{"id":` + string(rune('0'+id)) + `,"type":"a","timestamp":1,"data":{},"idempotency_key":null,"status":"pending","destinations":0,"created_at":"2026-01-01T00:00:00Z"}`
	}
	s := &script{answers: []func() (*http.Response, error){
		answer(200, "", `{"data":[`+item(3)+`,`+item(2)+`],"next_cursor":"c1"}`),
		answer(200, "", `{"data":[`+item(1)+`],"next_cursor":null}`),
	}}
	var waits []time.Duration
	var ids []int
	for event, err := range clientFor(t, s, &waits, 0).Events.List(context.Background(), ListEvents{}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, event.Id)
	}
	equal(t, ids, []int{3, 2, 1})
}

func TestRetryDelayIsRetryAfterTimesTwoToTheRetryPlusJitter(t *testing.T) {
	equal(t, RetryDelay(0, 3*time.Second, 0), 3*time.Second)
	equal(t, RetryDelay(4, 3*time.Second, 0.5), 48*time.Second+250*time.Millisecond)
	equal(t, RetryDelay(2, -1, 1), 4*time.Second+500*time.Millisecond)
}

package platform

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/devops-platform/platform-go/generated"
)

// The spec's advice on 429 (and the 503 overloaded shed): wait Retry-After seconds, doubled on each retry,
// plus a random jitter of up to 500 ms, at most 5 retries (and at most WithMaxRetryWait in all, when it is set).
// A spent monthly quota (429 quota_exceeded) is not retried: it lasts until the next period.
const (
	DefaultMaxRetries = 5
	MaxJitter         = 500 * time.Millisecond
	// The wait when the answer says nothing (no Retry-After, or no answer at all: a time-out).
	DefaultRetryAfter = time.Second
)

// RetryDelay is the wait before retry number retry (0 for the first); retryAfter < 0 means the answer had none;
// random is uniform in [0, 1).
func RetryDelay(retry int, retryAfter time.Duration, random float64) time.Duration {
	if retryAfter < 0 {
		retryAfter = DefaultRetryAfter
	}
	return time.Duration(float64(retryAfter)*math.Pow(2, float64(retry))) + time.Duration(random*float64(MaxJitter))
}

// retryAfter reads Retry-After as seconds, -1 when absent or not a number of seconds.
func retryAfter(h http.Header) time.Duration {
	seconds, err := strconv.ParseFloat(h.Get("Retry-After"), 64)
	if err != nil || seconds < 0 {
		return -1
	}
	return time.Duration(seconds * float64(time.Second))
}

// quotaSpent says whether a 429 is the monthly quota's (code quota_exceeded). It reads the body and puts it back
// for the caller.
func quotaSpent(resp *http.Response) bool {
	if resp.StatusCode != http.StatusTooManyRequests {
		return false
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var answer struct {
		Code generated.ErrorCode `json:"code"`
	}
	return err == nil && json.Unmarshal(body, &answer) == nil && answer.Code == generated.ErrorCodeQuotaExceeded
}

// safeToRepeatKey marks a request whose repeat cannot do anything twice (a send, thanks to its idempotency key).
type safeToRepeatKey struct{}

func safeToRepeat(req *http.Request) bool {
	return req.Method == http.MethodGet || req.Context().Value(safeToRepeatKey{}) != nil
}

// retryingDoer sends a request, and again after the spec's wait while the answer is a 429 or a 503 (at most
// maxRetries times, and at most maxRetryWait of waiting in all). A network error or time-out is
// retried only for a request that is safe to repeat.
type retryingDoer struct {
	next         *http.Client
	maxRetries   int
	maxRetryWait time.Duration
	sleep        func(context.Context, time.Duration) error
	random       func() float64
}

// mayRetry says whether retry number retry may be made after wait, when waited has been spent waiting already.
func (d *retryingDoer) mayRetry(retry int, waited, wait time.Duration) bool {
	return retry < d.maxRetries && waited+wait <= d.maxRetryWait
}

func (d *retryingDoer) Do(req *http.Request) (*http.Response, error) {
	var waited time.Duration
	for retry := 0; ; retry++ {
		attempt := req
		if retry > 0 && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attempt = req.Clone(req.Context())
			attempt.Body = body
		}
		resp, err := d.next.Do(attempt)
		var wait time.Duration
		switch {
		case err != nil:
			if !safeToRepeat(req) || req.Context().Err() != nil {
				return nil, err
			}
			if wait = RetryDelay(retry, -1, d.random()); !d.mayRetry(retry, waited, wait) {
				return nil, err
			}
		case (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) && !quotaSpent(resp):
			if wait = RetryDelay(retry, retryAfter(resp.Header), d.random()); !d.mayRetry(retry, waited, wait) {
				return resp, nil
			}
			resp.Body.Close()
		default:
			return resp, nil
		}
		waited += wait
		if err := d.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

// sleepContext waits d, or less if ctx ends first (then its error).
func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

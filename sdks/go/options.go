package platform

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"time"
)

// Option configures a Client.
type Option func(*settings)

type settings struct {
	httpClient *http.Client
	timeout    time.Duration
	maxRetries int
	// The longest Duration unless set: no bound beyond maxRetries.
	maxRetryWait time.Duration
	sleep        func(context.Context, time.Duration) error
	random       func() float64
}

func defaults() settings {
	return settings{timeout: 30 * time.Second, maxRetries: DefaultMaxRetries, maxRetryWait: math.MaxInt64, sleep: sleepContext, random: rand.Float64}
}

// WithHTTPClient sends the calls with c (its Transport, e.g. a custom TLS configuration); its Timeout is kept when set.
func WithHTTPClient(c *http.Client) Option { return func(s *settings) { s.httpClient = c } }

// WithTimeout bounds each HTTP call (each retry has its own); 30 s unless told.
func WithTimeout(d time.Duration) Option { return func(s *settings) { s.timeout = d } }

// WithMaxRetries bounds the retries of one call (the spec's 5 unless told; 0 turns retries off).
func WithMaxRetries(n int) Option { return func(s *settings) { s.maxRetries = n } }

// WithMaxRetryWait bounds the waiting between one call's tries, in all: a retry whose wait would pass d is not
// made, and the last answer is returned at once (0 turns retries off). Unset, only WithMaxRetries bounds it: five
// waits are 31 × Retry-After (15.5 minutes at a 503's longest, 30 s; 31 at a 429's, 60 s). A context deadline ends
// a call too, with its error.
func WithMaxRetryWait(d time.Duration) Option { return func(s *settings) { s.maxRetryWait = d } }

// WithSleep replaces the wait between retries (tests inject one that records and returns at once).
func WithSleep(sleep func(context.Context, time.Duration) error) Option {
	return func(s *settings) { s.sleep = sleep }
}

// WithRandom replaces the source of the jitter: uniform in [0, 1).
func WithRandom(random func() float64) Option { return func(s *settings) { s.random = random } }

package webhooks

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type vector struct {
	Name             string            `json:"name"`
	Scheme           Scheme            `json:"scheme"`
	Secrets          []string          `json:"secrets"`
	Headers          map[string]string `json:"headers"`
	Body             string            `json:"body"`
	Now              int64             `json:"now"`
	ToleranceSeconds *int64            `json:"tolerance_seconds"`
	CheckBody        *bool             `json:"check_body"`
	Expected         struct {
		Valid   bool      `json:"valid"`
		EventID *int64    `json:"event_id"`
		Error   ErrorCode `json:"error"`
	} `json:"expected"`
}

func loadVectors(t *testing.T) []vector {
	raw, err := os.ReadFile(filepath.Join("..", "test-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Vectors []vector }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 50 {
		t.Fatalf("only %d vectors", len(file.Vectors))
	}
	return file.Vectors
}

func headersOf(m map[string]string) http.Header {
	h := http.Header{}
	for k, v := range m {
		h.Set(k, v)
	}
	return h
}

func TestVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		v := v
		t.Run(v.Name, func(t *testing.T) {
			opts := Options{Secrets: v.Secrets, Scheme: v.Scheme, Now: func() time.Time { return time.Unix(v.Now, 0) }}
			if v.ToleranceSeconds != nil {
				opts.Tolerance = time.Duration(*v.ToleranceSeconds) * time.Second
			}
			if v.CheckBody != nil && !*v.CheckBody {
				opts.SkipBodyCheck = true
			}
			verified, err := Verify([]byte(v.Body), headersOf(v.Headers), opts)
			// A broker message's headers map gives the same answer.
			fromMessage, messageErr := VerifyMessage([]byte(v.Body), v.Headers, opts)
			if (err == nil) != (messageErr == nil) || err != nil && err.Error() != messageErr.Error() || err == nil && fromMessage.ID != verified.ID {
				t.Fatalf("from a headers map: %v, %v; from http.Header: %v, %v", fromMessage, messageErr, verified, err)
			}
			if v.Expected.Valid {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				if v.Expected.EventID == nil && verified.Event != nil || v.Expected.EventID != nil && (verified.Event == nil || verified.Event.ID != *v.Expected.EventID) {
					t.Fatalf("wrong event %+v", verified.Event)
				}
				return
			}
			var refused *VerificationError
			if !errors.As(err, &refused) || refused.Code != v.Expected.Error {
				t.Fatalf("want %s, got %v", v.Expected.Error, err)
			}
		})
	}
}

func TestMiddleware(t *testing.T) {
	var v vector
	for _, candidate := range loadVectors(t) {
		if candidate.Name == "a delivery verifies (standard)" {
			v = candidate
		}
	}
	var seen *Verified
	handler := Middleware(Options{Secrets: v.Secrets, Now: func() time.Time { return time.Unix(v.Now, 0) }}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ = FromContext(r.Context())
		w.WriteHeader(http.StatusNoContent)
	}))
	send := func(body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
		r.Header = headersOf(v.Headers)
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, r)
		return w
	}
	if w := send(v.Body); w.Code != http.StatusNoContent || seen == nil || seen.ID != "1234" {
		t.Fatalf("valid delivery: %d %+v", w.Code, seen)
	}
	if w := send(v.Body + " "); w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), "no_matching_signature") {
		t.Fatalf("tampered delivery: %d %s", w.Code, w.Body.String())
	}
}

func TestSystemClockByDefault(t *testing.T) {
	v := loadVectors(t)[0]
	_, err := Verify([]byte(v.Body), headersOf(v.Headers), Options{Secrets: v.Secrets})
	var refused *VerificationError
	if !errors.As(err, &refused) || refused.Code != TimestampTooOld {
		t.Fatalf("want timestamp_too_old, got %v", err)
	}
}

func TestNoSecretIsAConfigurationError(t *testing.T) {
	_, err := Verify(nil, http.Header{}, Options{})
	var refused *VerificationError
	if err == nil || errors.As(err, &refused) {
		t.Fatalf("want a plain error, got %v", err)
	}
}

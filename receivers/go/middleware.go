package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

type contextKey struct{}

// MaxBodyBytes bounds what Middleware reads (the platform's bodies are at most about 256 KiB).
const MaxBodyBytes = 1 << 20

// Middleware verifies every request before next sees it: a refused one gets 401 with
// {"error": "<code>"}. next finds the verified delivery with FromContext and the raw body
// again in r.Body.
func Middleware(opts Options, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil || len(body) > MaxBodyBytes {
			http.Error(w, "body unreadable or too large", http.StatusRequestEntityTooLarge)
			return
		}
		verified, err := Verify(body, r.Header, opts)
		var refused *VerificationError
		if errors.As(err, &refused) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": string(refused.Code)})
			return
		}
		if err != nil {
			http.Error(w, "webhook verification is misconfigured", http.StatusInternalServerError)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), contextKey{}, verified)))
	})
}

// FromContext is the delivery Middleware verified.
func FromContext(ctx context.Context) (*Verified, bool) {
	v, ok := ctx.Value(contextKey{}).(*Verified)
	return v, ok
}

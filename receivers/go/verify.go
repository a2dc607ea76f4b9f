// Package webhooks verifies the platform's webhook deliveries: the Standard Webhooks headers
// (webhook-id, webhook-timestamp, webhook-signature), which resist replay, or the spec's
// X-Webhook-Signature. Standard library only. Same checks and error codes as the TypeScript
// and Python libraries.
package webhooks

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ErrorCode says which check failed.
type ErrorCode string

const (
	MissingHeader       ErrorCode = "missing_header"
	MalformedHeader     ErrorCode = "malformed_header"
	TimestampTooOld     ErrorCode = "timestamp_too_old"
	TimestampTooNew     ErrorCode = "timestamp_too_new"
	NoMatchingSignature ErrorCode = "no_matching_signature"
	HeaderBodyMismatch  ErrorCode = "header_body_mismatch"
	MalformedBody       ErrorCode = "malformed_body"
)

// DefaultTolerance is how far webhook-timestamp may be from now, either way, unless Options says otherwise.
const DefaultTolerance = 5 * time.Minute

// VerificationError is returned for a delivery that must be refused (answer 401).
type VerificationError struct {
	Code    ErrorCode
	Message string
}

func (e *VerificationError) Error() string { return string(e.Code) + ": " + e.Message }

// Scheme selects the signature to verify.
type Scheme string

const (
	// Standard: webhook-id, webhook-timestamp, webhook-signature (the default; resists replay).
	Standard Scheme = "standard"
	// Spec: X-Webhook-Signature: sha256=<hex> over the body only.
	Spec Scheme = "spec"
)

// Options of Verify. Secrets is required; the zero value of every other field is its default.
type Options struct {
	// The endpoint's whsec_ secret, or several during a rotation: any one may match.
	Secrets []string
	Scheme  Scheme
	// Zero means DefaultTolerance.
	Tolerance time.Duration
	// The clock; nil means time.Now.
	Now func() time.Time
	// SkipBodyCheck: do not compare the headers' id, type and timestamp with the body's.
	SkipBodyCheck bool
}

// Event is the platform's delivery body.
type Event struct {
	ID        int64           `json:"id"`
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	Timestamp int64           `json:"timestamp"`
}

// Verified is a delivery that passed every check.
type Verified struct {
	Scheme Scheme
	// ID is the verified event id: de-duplicate on it (the same on every retry).
	ID string
	// Event is the parsed body; nil with SkipBodyCheck.
	Event *Event
}

var (
	timestampPattern = regexp.MustCompile(`^[0-9]{1,15}$`)
	specPattern      = regexp.MustCompile(`^sha256=([0-9a-f]{64})$`)
	base64Pattern    = regexp.MustCompile(`^(?:[A-Za-z0-9+/]*|[A-Za-z0-9_-]*)={0,2}$`)
	integerPattern   = regexp.MustCompile(`^-?[0-9]+$`)
)

func fail(code ErrorCode, format string, args ...any) error {
	return &VerificationError{Code: code, Message: fmt.Sprintf(format, args...)}
}

func header(h http.Header, name string) (string, bool) {
	values := h.Values(name)
	if len(values) == 0 {
		return "", false
	}
	return strings.Join(values, ", "), true
}

func decodeBase64(text string) ([]byte, bool) {
	stripped := strings.TrimRight(text, "=")
	if !base64Pattern.MatchString(text) || len(stripped)%4 == 1 {
		return nil, false
	}
	stripped = strings.NewReplacer("-", "+", "_", "/").Replace(stripped)
	b, err := base64.RawStdEncoding.DecodeString(stripped)
	return b, err == nil
}

// StandardKey is the standard scheme's HMAC key: the bytes encoded after whsec_ (standard base64,
// or base64url for secrets made before standard base64).
func StandardKey(secret string) ([]byte, error) {
	key, ok := decodeBase64(strings.TrimPrefix(secret, "whsec_"))
	if !ok || len(key) == 0 {
		return nil, errors.New("a signing secret must be whsec_ followed by base64")
	}
	return key, nil
}

func mac(key, message []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(message)
	return m.Sum(nil)
}

// VerifyMessage checks one broker message (a RabbitMQ, Kafka or SQS destination's) from its body bytes
// and its headers as a map, names in any case: the same checks as Verify. A Kafka header's []byte value
// and an SQS attribute's StringValue go in as strings.
func VerifyMessage(body []byte, headers map[string]string, opts Options) (*Verified, error) {
	h := http.Header{}
	for name, value := range headers {
		h.Add(name, value)
	}
	return Verify(body, h, opts)
}

// Verify checks one delivery from its raw body bytes and headers. It returns a *VerificationError
// (its Code says which check failed) or the verified id and event. A configuration mistake (no
// secret, a secret that is not base64) is a plain error.
func Verify(body []byte, h http.Header, opts Options) (*Verified, error) {
	if len(opts.Secrets) == 0 {
		return nil, errors.New("at least one secret is needed")
	}
	for _, s := range opts.Secrets {
		if s == "" {
			return nil, errors.New("secrets must not be empty")
		}
	}
	tolerance := opts.Tolerance
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	clock := time.Now
	if opts.Now != nil {
		clock = opts.Now
	}
	now := clock().Unix()
	tol := int64(tolerance / time.Second)
	required := func(name string) (string, error) {
		v, ok := header(h, name)
		if !ok {
			return "", fail(MissingHeader, "missing %s header", name)
		}
		return v, nil
	}

	scheme := opts.Scheme
	if scheme == "" {
		scheme = Standard
	}
	var id string
	matched := false
	switch scheme {
	case Spec:
		var ts, sig string
		var err error
		for _, step := range []struct {
			name string
			into *string
		}{{"X-Webhook-ID", &id}, {"X-Webhook-Type", new(string)}, {"X-Webhook-Timestamp", &ts}, {"X-Webhook-Signature", &sig}} {
			if *step.into, err = required(step.name); err != nil {
				return nil, err
			}
		}
		m := specPattern.FindStringSubmatch(sig)
		if m == nil {
			return nil, fail(MalformedHeader, "X-Webhook-Signature is not sha256=<64 lowercase hex digits>")
		}
		if !timestampPattern.MatchString(ts) {
			return nil, fail(MalformedHeader, "X-Webhook-Timestamp is not Unix seconds")
		}
		// The event's own time, the same on every retry: only a future one is refused.
		t, _ := strconv.ParseInt(ts, 10, 64)
		if t-now > tol {
			return nil, fail(TimestampTooNew, "timestamp is more than %d s in the future", tol)
		}
		received, _ := hex.DecodeString(m[1])
		for _, s := range opts.Secrets {
			if hmac.Equal(mac([]byte(s), body), received) {
				matched = true
			}
		}
	case Standard:
		var ts, sig string
		var err error
		if id, err = required("webhook-id"); err != nil {
			return nil, err
		}
		if ts, err = required("webhook-timestamp"); err != nil {
			return nil, err
		}
		if sig, err = required("webhook-signature"); err != nil {
			return nil, err
		}
		if !timestampPattern.MatchString(ts) {
			return nil, fail(MalformedHeader, "webhook-timestamp is not Unix seconds")
		}
		var entries []string
		for _, e := range strings.Split(sig, " ") {
			if e != "" {
				entries = append(entries, e)
			}
		}
		if len(entries) == 0 {
			return nil, fail(MalformedHeader, `webhook-signature is not space-separated "v1,<base64>" entries`)
		}
		for _, e := range entries {
			if !strings.Contains(e, ",") {
				return nil, fail(MalformedHeader, `webhook-signature is not space-separated "v1,<base64>" entries`)
			}
		}
		t, _ := strconv.ParseInt(ts, 10, 64)
		if now-t > tol {
			return nil, fail(TimestampTooOld, "timestamp is more than %d s old (a replay?)", tol)
		}
		if t-now > tol {
			return nil, fail(TimestampTooNew, "timestamp is more than %d s in the future", tol)
		}
		var signatures [][]byte
		for _, e := range entries {
			if s, ok := decodeBase64(strings.TrimPrefix(e, "v1,")); strings.HasPrefix(e, "v1,") && ok && len(s) == sha256.Size {
				signatures = append(signatures, s)
			}
		}
		message := append([]byte(id+"."+ts+"."), body...)
		for _, s := range opts.Secrets {
			key, err := StandardKey(s)
			if err != nil {
				return nil, err
			}
			expected := mac(key, message)
			for _, candidate := range signatures {
				if hmac.Equal(expected, candidate) {
					matched = true
				}
			}
		}
	default:
		return nil, fmt.Errorf("unknown scheme %q", scheme)
	}
	if !matched {
		return nil, fail(NoMatchingSignature, "no signature matches any of the secrets")
	}
	if opts.SkipBodyCheck {
		return &Verified{Scheme: scheme, ID: id}, nil
	}
	event, err := parseEvent(body)
	if err != nil {
		return nil, err
	}
	idHeader := "webhook-id"
	if scheme == Spec {
		idHeader = "X-Webhook-ID"
	}
	for _, c := range [][2]string{
		{idHeader, strconv.FormatInt(event.ID, 10)},
		{"X-Webhook-ID", strconv.FormatInt(event.ID, 10)},
		{"X-Webhook-Type", event.Type},
		{"X-Webhook-Timestamp", strconv.FormatInt(event.Timestamp, 10)},
	} {
		if v, ok := header(h, c[0]); ok && v != c[1] {
			return nil, fail(HeaderBodyMismatch, "%s does not match the body", c[0])
		}
	}
	return &Verified{Scheme: scheme, ID: id, Event: event}, nil
}

func parseEvent(body []byte) (*Event, error) {
	var fields map[string]json.RawMessage
	decoder := json.NewDecoder(bytes.NewReader(body))
	if err := decoder.Decode(&fields); err != nil || decoder.More() {
		return nil, fail(MalformedBody, "the body is not a JSON object")
	}
	var event Event
	var typ string
	idText, tsText := string(fields["id"]), string(fields["timestamp"])
	if !integerPattern.MatchString(idText) || !integerPattern.MatchString(tsText) || json.Unmarshal(fields["type"], &typ) != nil {
		return nil, fail(MalformedBody, "the body is not a platform event {id, type, data, timestamp}")
	}
	event.ID, _ = strconv.ParseInt(idText, 10, 64)
	event.Timestamp, _ = strconv.ParseInt(tsText, 10, 64)
	event.Type = typ
	event.Data = fields["data"]
	return &event, nil
}

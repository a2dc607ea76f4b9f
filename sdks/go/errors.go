package platform

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/devops-platform/platform-go/generated"
)

// ErrorCode is the platform's closed set of error codes; the constants are generated from the OpenAPI document
// (generated.ErrorCodeRateLimitExceeded, ...). A code this version does not know yet is kept as it came.
type ErrorCode = generated.ErrorCode

// ApiError is an answer of the platform that is not a success.
type ApiError struct {
	Status     int
	Code       ErrorCode
	Message    string
	RequestID  string
	RetryAfter int
	// Details says which fields of a 400 were refused, or which paths of an event's data its schema refused (422 schema_mismatch).
	Details []Detail
	// Body is the answer as it came.
	Body []byte
}

// Detail is one refused field of a 400: where, and why.
type Detail struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (e *ApiError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("platform: HTTP %d: %s", e.Status, e.Message)
	}
	return fmt.Sprintf("platform: %d %s: %s", e.Status, e.Code, e.Message)
}

func newApiError(resp *http.Response, body []byte) *ApiError {
	var fields struct {
		Error      string    `json:"error"`
		Code       ErrorCode `json:"code"`
		RequestID  string    `json:"request_id"`
		RetryAfter int       `json:"retry_after"`
		Details    []Detail  `json:"details"`
	}
	e := &ApiError{Status: resp.StatusCode, Body: body}
	if json.Unmarshal(body, &fields) == nil {
		e.Code, e.Message, e.RequestID, e.RetryAfter, e.Details = fields.Code, fields.Error, fields.RequestID, fields.RetryAfter, fields.Details
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	if e.RequestID == "" {
		e.RequestID = resp.Header.Get("X-Request-Id")
	}
	return e
}

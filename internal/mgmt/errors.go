package mgmt

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// APIError is a non-2xx answer of the Management API.
type APIError struct {
	Method     string
	Path       string
	StatusCode int
	// Err is the HTTP reason phrase the API puts in "error".
	Err string
	// Message is the API's explanation; the status text when the body had none.
	Message string
	// ErrorCode is optional: several endpoints never send it.
	ErrorCode string
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d %s", e.Method, e.Path, e.StatusCode, e.Err)
	if e.Message != "" && e.Message != e.Err {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if e.ErrorCode != "" {
		fmt.Fprintf(&b, " (%s)", e.ErrorCode)
	}
	return b.String()
}

// errorBody covers the standard {statusCode, error, message, errorCode} shape and
// the {code, message} shape the phone provider endpoints use.
type errorBody struct {
	StatusCode json.Number `json:"statusCode"`
	Error      string      `json:"error"`
	Message    string      `json:"message"`
	ErrorCode  string      `json:"errorCode"`
	Code       json.Number `json:"code"`
}

// ParseAPIError builds an APIError from a status and a response body. It never
// fails: bodies that are not JSON (an HTML page from a proxy, a truncated
// answer) fall back to the status text.
func ParseAPIError(method, path string, status int, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: status, Err: http.StatusText(status)}
	if e.Err == "" {
		e.Err = fmt.Sprintf("HTTP %d", status)
	}
	var b errorBody
	if err := json.Unmarshal(body, &b); err != nil {
		e.Message = e.Err
		return e
	}
	if b.Error != "" {
		e.Err = b.Error
	}
	e.Message = strings.TrimSpace(b.Message)
	if e.Message == "" {
		e.Message = e.Err
	}
	e.ErrorCode = b.ErrorCode
	return e
}

// StatusOf returns the HTTP status of an APIError in err's chain, or 0.
func StatusOf(err error) int {
	var e *APIError
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

// AsAPIError returns the APIError in err's chain, if any.
func AsAPIError(err error) (*APIError, bool) {
	var e *APIError
	ok := errors.As(err, &e)
	return e, ok
}

func IsNotFound(err error) bool     { return StatusOf(err) == http.StatusNotFound }
func IsConflict(err error) bool     { return StatusOf(err) == http.StatusConflict }
func IsForbidden(err error) bool    { return StatusOf(err) == http.StatusForbidden }
func IsUnauthorized(err error) bool { return StatusOf(err) == http.StatusUnauthorized }
func IsBadRequest(err error) bool   { return StatusOf(err) == http.StatusBadRequest }

// TokenError is a refusal from the /oauth/token endpoint.
type TokenError struct {
	ClientID    string
	TokenURL    string
	StatusCode  int
	Code        string
	Description string
}

func (e *TokenError) Error() string {
	what := fmt.Sprintf("the client credentials of client_id %q were refused by %s", e.ClientID, e.TokenURL)
	reason := strings.TrimSpace(strings.Join(nonEmpty(e.Code, e.Description), ": "))
	if reason == "" {
		reason = http.StatusText(e.StatusCode)
	}
	hint := "check client_id and client_secret (TENANT_CLIENT_ID, TENANT_CLIENT_SECRET)"
	if e.StatusCode == http.StatusForbidden {
		hint = "grant this client access to the audience (a client grant for the Management API) or fix audience (TENANT_AUDIENCE)"
	}
	return fmt.Sprintf("%s (HTTP %d, %s); %s", what, e.StatusCode, reason, hint)
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// CertificateError is a request the client did not send because it does
// not trust the tenant's TLS certificate. It is never retried.
type CertificateError struct {
	Err error
}

func (e *CertificateError) Error() string {
	var (
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	switch {
	case errors.As(e.Err, &host):
		return e.Err.Error() + ". Check domain (TENANT_DOMAIN): the tenant's certificate does not name it"
	case errors.As(e.Err, &invalid):
		return e.Err.Error() + ". The tenant's certificate must be renewed or replaced; no provider setting accepts it"
	}
	return e.Err.Error() + ". Set ca_file (TENANT_CA_FILE) to the PEM of the CA that signed the tenant's certificate"
}

func (e *CertificateError) Unwrap() error { return e.Err }

// certificateRefused reports whether err is the client's refusal of the
// server's certificate (an unknown authority, another host's name, an
// expired certificate).
func certificateRefused(err error) bool {
	var (
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid)
}

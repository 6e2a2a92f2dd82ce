// Package mgmt is the one client of the tenant Management API v2 that every
// resource, data source and action of the provider shares. It knows nothing
// of Terraform: it speaks HTTP and returns typed values and *APIError.
package mgmt

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// MaxResponseBytes bounds every response body the client reads, so a broken
// server or proxy cannot exhaust the provider's memory.
const MaxResponseBytes = 10 << 20

// Config is everything New needs. Exactly one of (ClientID, ClientSecret) or
// APIToken authenticates.
type Config struct {
	Domain       string
	ClientID     string
	ClientSecret string
	APIToken     string
	// Audience defaults to the tenant's Management API identifier.
	Audience  string
	UserAgent string
	// MaxRetries is how many times a failed attempt is retried (default 5; 0 is
	// "use the default", a negative value disables retries).
	MaxRetries int
	// RequestTimeout bounds one attempt (default 30s).
	RequestTimeout time.Duration
	// MaxRequestsPerSecond caps the request rate; 0 follows the API's
	// rate-limit headers only.
	MaxRequestsPerSecond float64
	// HTTPClient is the base client (TLS settings, tests); nil uses a default.
	HTTPClient *http.Client
	// CAPEM holds PEM certificates of CAs trusted in addition to the
	// system's, for a tenant (or an emulator) whose certificate a private CA
	// signed. It applies to this client's requests only, and not when
	// HTTPClient brings its own transport.
	CAPEM []byte
	// MinBackoff and MaxBackoff bound the exponential backoff between retries
	// of 5xx and transport errors (defaults 250ms and 8s).
	MinBackoff, MaxBackoff time.Duration
	// MaxRateLimitWait caps one wait for a rate-limit reset (default 60s).
	MaxRateLimitWait time.Duration
	// MinPoll and MaxPoll bound the waits between two reads of an action
	// that is still building or deploying: they start at MinPoll and grow
	// by half up to MaxPoll (defaults 200ms and 5s).
	MinPoll, MaxPoll time.Duration
	// OnWrite, when set, is called with the method, escaped path and body
	// of every request that is not a GET before it is sent, and the
	// function it returns once its last attempt ends, with what the answer
	// decoded into (nil when the answer had no body or the call decodes
	// none) and the call's error: what a caller kept from earlier reads of
	// that path may be out of date from the first call on, and the answer
	// says what it became.
	OnWrite func(method, path string, body any) (done func(answer any, err error))
}

// Client is safe for concurrent use.
type Client struct {
	endpoint Endpoint
	cfg      Config
	http     *http.Client
	tokens   *tokenCache
	secrets  []string
	pace     *pacer
}

// New validates cfg and builds a client. It sends no request.
func New(cfg Config) (*Client, error) {
	ep, err := ParseDomain(cfg.Domain)
	if err != nil {
		return nil, err
	}
	hasCreds := cfg.ClientID != "" || cfg.ClientSecret != ""
	switch {
	case hasCreds && cfg.APIToken != "":
		return nil, errors.New("both client credentials and an api_token are set; use exactly one")
	case cfg.APIToken == "" && (cfg.ClientID == "" || cfg.ClientSecret == ""):
		return nil, errors.New("client credentials need both client_id and client_secret")
	}
	if cfg.Audience == "" {
		cfg.Audience = ep.DefaultAudience()
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 5
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 30 * time.Second
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = 250 * time.Millisecond
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 8 * time.Second
	}
	if cfg.MaxRateLimitWait <= 0 {
		cfg.MaxRateLimitWait = 60 * time.Second
	}
	if cfg.MinPoll <= 0 {
		cfg.MinPoll = 200 * time.Millisecond
	}
	if cfg.MaxPoll < cfg.MinPoll {
		cfg.MaxPoll = max(5*time.Second, cfg.MinPoll)
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "terraform-provider-tenant"
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if len(cfg.CAPEM) > 0 {
		roots, err := x509.SystemCertPool()
		if err != nil {
			roots = x509.NewCertPool()
		}
		if !roots.AppendCertsFromPEM(cfg.CAPEM) {
			return nil, errors.New("the CA certificates hold no PEM certificate (-----BEGIN CERTIFICATE-----)")
		}
		transport.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	var base http.RoundTripper = transport
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		base = cfg.HTTPClient.Transport
	}
	// Only the transport of a given client is used: redirects are never
	// followed, whatever that client would do, and no cookie jar is kept.
	hc := &http.Client{Transport: base, CheckRedirect: refuseRedirect}
	c := &Client{endpoint: ep, cfg: cfg, http: hc, pace: newPacer(cfg.MaxRequestsPerSecond)}
	if cfg.APIToken != "" {
		static := &oauth2.Token{AccessToken: cfg.APIToken, TokenType: "Bearer"}
		c.tokens = &tokenCache{fetch: func(context.Context) (*oauth2.Token, error) { return static, nil }}
		c.secrets = []string{cfg.APIToken}
	} else {
		cc := clientcredentials.Config{
			ClientID:       cfg.ClientID,
			ClientSecret:   cfg.ClientSecret,
			TokenURL:       ep.TokenURL(),
			EndpointParams: url.Values{"audience": {cfg.Audience}},
			// One request per token: auto-detection would first try Basic
			// and, on any refusal, send the credentials a second time.
			AuthStyle: oauth2.AuthStyleInParams,
		}
		tokenHTTP := &http.Client{Transport: base, Timeout: cfg.RequestTimeout, CheckRedirect: refuseRedirect}
		c.tokens = &tokenCache{fetch: func(ctx context.Context) (*oauth2.Token, error) {
			return cc.Token(context.WithValue(ctx, oauth2.HTTPClient, tokenHTTP))
		}}
		c.secrets = []string{cfg.ClientSecret}
	}
	return c, nil
}

// Endpoint is the tenant the client talks to.
func (c *Client) Endpoint() Endpoint { return c.endpoint }

// Audience is the audience requested for access tokens.
func (c *Client) Audience() string { return c.cfg.Audience }

// LastRateLimit is the rate-limit state read from the most recent response.
func (c *Client) LastRateLimit() RateLimit { return c.pace.last() }

// request is one logical API call.
type request struct {
	method string
	path   string // escaped, relative to the base URL
	query  url.Values
	body   any
	// idempotent marks a POST whose repetition changes nothing, so it is
	// retried like a PUT.
	idempotent bool
	// secrets are values in the body that no log line may show.
	secrets []string
}

// do sends r, retrying as the API allows, and decodes a 2xx body into out
// (when out is non-nil and the body is not empty). It returns the status.
func (c *Client) do(ctx context.Context, r request, out any) (status int, err error) {
	if c == nil {
		return 0, errNotConfigured
	}
	if err := checkPath(r.path); err != nil {
		return 0, err
	}
	decoded := false // out holds the answer
	if r.method != http.MethodGet && c.cfg.OnWrite != nil {
		done := c.cfg.OnWrite(r.method, r.path, r.body)
		defer func() {
			var answer any
			if decoded && err == nil {
				answer = out
			}
			done(answer, err)
		}()
	}
	ctx = c.logContext(ctx, r.secrets...)
	var payload []byte
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return 0, fmt.Errorf("encoding the %s %s body: %w", r.method, r.path, err)
		}
		payload = b
	}
	target := c.endpoint.BaseURL() + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	var lastErr error
	refetched := false
	for attempt := 0; ; attempt++ {
		if err := c.pace.wait(ctx); err != nil {
			return 0, errors.Join(err, lastErr)
		}
		status, body, hdr, used, err := c.send(ctx, r.method, target, payload, attempt)
		if err == nil && status >= 200 && status < 300 {
			if out != nil && len(bytes.TrimSpace(body)) > 0 {
				if err := json.Unmarshal(body, out); err != nil {
					return status, fmt.Errorf("malformed response from %s %s (%d): %v", r.method, r.path, status, err)
				}
				decoded = true
			}
			return status, nil
		}
		var wait time.Duration
		retry := false
		switch {
		case errors.As(err, new(*RedirectError)):
			return 0, err
		case err != nil && certificateRefused(err):
			// Not transient: every attempt would meet the same certificate.
			return 0, &CertificateError{Err: err}
		case err != nil:
			var te *TokenError
			if errors.As(err, &te) && te.StatusCode != 0 && te.StatusCode < 500 && te.StatusCode != http.StatusTooManyRequests {
				return 0, err
			}
			lastErr = err
			// A write that is not idempotent is sent again only when it
			// provably never left: a dial failure, or no token to send it
			// with. One that may have reached the server could have been
			// applied; the caller decides (SafeCreate looks the object up).
			retry = r.idempotent || idempotent(r.method) || notSent(err) || errors.As(err, &te)
			wait = c.backoff(attempt)
		default:
			apiErr := ParseAPIError(r.method, r.path, status, body)
			lastErr = apiErr
			switch {
			case status == http.StatusUnauthorized && c.cfg.APIToken == "" && !refetched && strings.Contains(apiErr.Message, "xpired"):
				// The tenant saw the token expire before we expected it to
				// (clock skew): fetch a new one and try once more.
				refetched = true
				c.tokens.invalidate(used)
				retry, wait = true, 0
			case status == http.StatusTooManyRequests:
				// The API refused the request without acting on it, so even
				// a create can be sent again.
				retry, wait = true, c.pace.denied(hdr, c.cfg.MaxRateLimitWait)
				wait += rand.N(wait/10 + 1)
			case status >= 500:
				// A server error may follow a committed write, so only
				// requests that can be repeated safely are.
				retry, wait = r.idempotent || idempotent(r.method), c.backoff(attempt)
			}
		}
		if !retry || attempt >= c.cfg.MaxRetries || ctx.Err() != nil {
			if retry && attempt >= c.cfg.MaxRetries {
				return status, fmt.Errorf("gave up after %d attempts: %w", attempt+1, lastErr)
			}
			return status, lastErr
		}
		tflog.SubsystemDebug(ctx, subsystem, "retrying", map[string]any{
			"method": r.method, "path": r.path, "attempt": attempt + 1, "wait_ms": wait.Milliseconds(), "error": lastErr.Error(),
		})
		if err := sleep(ctx, wait); err != nil {
			return status, errors.Join(err, lastErr)
		}
	}
}

// send makes one attempt and also returns the access token it used.
func (c *Client) send(ctx context.Context, method, target string, payload []byte, attempt int) (status int, body []byte, hdr http.Header, token string, err error) {
	// A request that gets no answer leaves the pacer's count here; one
	// that does, when the answer is recorded.
	answered := false
	defer func() {
		if !answered {
			c.pace.abandon()
		}
	}()
	tok, err := c.tokens.Token(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, nil, "", ctx.Err()
		}
		return 0, nil, nil, "", c.tokenError(err)
	}
	actx, cancel := context.WithTimeout(ctx, c.cfg.RequestTimeout)
	defer cancel()
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(actx, method, target, rd)
	if err != nil {
		return 0, nil, nil, tok.AccessToken, err
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	lctx := tflog.SubsystemMaskAllFieldValuesStrings(ctx, subsystem, tok.AccessToken)
	lctx = tflog.SubsystemMaskMessageStrings(lctx, subsystem, tok.AccessToken)
	if payload != nil {
		tflog.SubsystemTrace(lctx, subsystem, "request body", map[string]any{"method": method, "path": req.URL.EscapedPath(), "body": redact(payload)})
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		tflog.SubsystemDebug(lctx, subsystem, "request failed", map[string]any{
			"method": method, "path": req.URL.EscapedPath(), "attempt": attempt + 1, "duration_ms": time.Since(start).Milliseconds(), "error": err.Error(),
		})
		return 0, nil, nil, tok.AccessToken, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return 0, nil, nil, tok.AccessToken, fmt.Errorf("reading the answer to %s %s: %w", method, req.URL.EscapedPath(), err)
	}
	if len(body) > MaxResponseBytes {
		return 0, nil, nil, tok.AccessToken, fmt.Errorf("the answer to %s %s is larger than %d bytes; refusing to read it", method, req.URL.EscapedPath(), MaxResponseBytes)
	}
	rl := parseRateLimit(resp.Header)
	answered = true
	c.pace.observe(rl, resp.StatusCode)
	fields := map[string]any{
		"method": method, "path": req.URL.EscapedPath(), "status": resp.StatusCode, "attempt": attempt + 1,
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if rl.Known {
		fields["ratelimit_remaining"] = rl.Remaining
	}
	tflog.SubsystemDebug(lctx, subsystem, "request", fields)
	if len(body) > 0 {
		tflog.SubsystemTrace(lctx, subsystem, "response body", map[string]any{"method": method, "path": req.URL.EscapedPath(), "body": redact(body)})
	}
	return resp.StatusCode, body, resp.Header, tok.AccessToken, nil
}

func (c *Client) tokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		te := &TokenError{ClientID: c.cfg.ClientID, TokenURL: c.endpoint.TokenURL(), Code: re.ErrorCode, Description: re.ErrorDescription}
		if re.Response != nil {
			te.StatusCode = re.Response.StatusCode
		}
		return te
	}
	return fmt.Errorf("requesting an access token from %s: %w", c.endpoint.TokenURL(), err)
}

func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.MinBackoff << min(attempt, 16)
	if d > c.cfg.MaxBackoff || d <= 0 {
		d = c.cfg.MaxBackoff
	}
	// Equal jitter: half fixed, half random, so concurrent retries spread out.
	return d/2 + rand.N(d/2+1)
}

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// notSent reports whether err certainly happened before the request reached
// the server, so repeating even a POST cannot create a second object.
func notSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns) || errors.Is(err, syscall.ECONNREFUSED)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// escape escapes one path segment: "/" inside a value becomes %2F.
func escape(s string) string { return strings.ReplaceAll(url.PathEscape(s), "/", "%2F") }

// checkPath refuses a path with an empty, "." or ".." segment, also when it
// only becomes one after the server decodes it (the API decodes some values
// twice, reference §4). A server resolves such a segment to another route:
// "/roles/../permissions" is "/permissions". escape leaves "." alone, so a
// value such as ".." would otherwise choose the route.
func checkPath(p string) error {
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if seg == "" || dotSegment(seg, 3) {
			return &PathError{Path: p, Segment: seg}
		}
	}
	return nil
}

// dotSegment reports whether v is "." or "..", or decodes (up to depth
// times) into a value with such a segment: "..%2Froles" is "../roles" once
// the server decodes it.
func dotSegment(v string, depth int) bool {
	for _, piece := range strings.Split(v, "/") {
		if piece == "." || piece == ".." {
			return true
		}
		if u, err := url.PathUnescape(piece); depth > 0 && err == nil && u != piece && dotSegment(u, depth-1) {
			return true
		}
	}
	return false
}

// PathError is a request refused before it was sent because a value would
// have changed its route.
type PathError struct {
	Path    string
	Segment string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("refusing to send a request to %q: the path segment %q is empty or a dot segment, which a server would resolve to another route; "+
		"an id or identifier cannot be empty, \".\" or \"..\"", e.Path, e.Segment)
}

// RedirectError is a 3xx answer. The Management API never redirects, and a
// redirect could carry the credentials to another host or to plain HTTP, so
// none is followed.
type RedirectError struct {
	Method   string
	URL      string
	Status   int
	Location string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s %s answered %d with a redirect to %q, which was not followed: the Management API does not redirect, "+
		"and following it could send the credentials elsewhere. Check that domain is the tenant's own domain and that no proxy in between redirects",
		e.Method, e.URL, e.Status, e.Location)
}

// refuseRedirect is every http.Client's CheckRedirect: it stops at the first
// 3xx, so neither the token request nor an API call is sent again anywhere.
func refuseRedirect(next *http.Request, via []*http.Request) error {
	e := &RedirectError{Location: next.URL.String()}
	if len(via) > 0 {
		e.Method, e.URL = via[0].Method, redactURL(via[0].URL)
	}
	if next.Response != nil {
		e.Status = next.Response.StatusCode
		if loc := next.Response.Header.Get("Location"); loc != "" {
			e.Location = loc
		}
	}
	return e
}

// redactURL drops the query, which is the only part of a URL the client
// builds from values that could be secrets.
func redactURL(u *url.URL) string {
	c := *u
	c.RawQuery, c.User = "", nil
	return c.String()
}

// errNotConfigured is returned by a nil *Client: the provider could not be
// configured yet (its domain or credentials are unknown until apply).
var errNotConfigured = errors.New("the provider is not configured: its domain or credentials are not known yet (they come from another resource); apply that resource first or set them in the provider block")

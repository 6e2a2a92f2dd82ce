// Package oauth is the tenant's authorization server as the emulator
// serves it: the token endpoint (client credentials, and the custom token
// exchange with the actions it runs, the users they set and the tokens it
// issues), the tenant's signing key and its JWKS.
package oauth

import (
	"crypto/rsa"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// Options configure the token endpoint.
type Options struct {
	// TokenLifetime is the lifetime of the Management API's tokens.
	TokenLifetime time.Duration
	// ExchangeRate limits token exchanges to this many a second, in a
	// bucket of ExchangeBurst (the rate, rounded up, when 0); 0 or less is
	// no limit (exchange_limit.go).
	ExchangeRate  float64
	ExchangeBurst int
}

// Server answers the token endpoint and the JWKS for one tenant.
type Server struct {
	*tenant.Tenant
	key           *rsa.PrivateKey
	kid           string
	runtime       *actionruntime.Runtime
	tokenLifetime time.Duration
	// Under the tenant's lock.
	actionCache map[string]map[string]actionruntime.CacheRecord // by trigger id
	attempts    map[string]*attemptBucket                       // by IP
	// refreshTokens are the refresh tokens issued, by the token's SHA-256
	// (refresh.go).
	refreshTokens map[string]*refreshRecord
	exchangeLimit *rate.Limiter // nil: none
}

// New takes the tenant's signing key (processKey), makes the certificate the
// tenant's clients show, and the token endpoint that signs with the key;
// actions run in rt.
func New(t *tenant.Tenant, rt *actionruntime.Runtime, o Options) (*Server, error) {
	s := &Server{Tenant: t, runtime: rt, tokenLifetime: o.TokenLifetime, exchangeLimit: newExchangeLimiter(o.ExchangeRate, o.ExchangeBurst)}
	var err error
	if s.key, s.kid, err = signingKey(); err != nil {
		return nil, err
	}
	t.SigningCert = signingCert(t.Host, s.key)
	return s, nil
}

// Routes registers the token endpoint and the JWKS.
func (s *Server) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /oauth/token", s.token)
	mux.HandleFunc("GET /.well-known/jwks.json", s.jwks)
	mux.HandleFunc("GET /.well-known/openid-configuration", s.discovery)
}

// Key is the tenant's signing key and its id.
func (s *Server) Key() (*rsa.PrivateKey, string) { return s.key, s.kid }

// Reset forgets the actions' caches, the throttled addresses and the
// refresh tokens. Under the tenant's lock.
func (s *Server) Reset() { s.actionCache, s.attempts, s.refreshTokens = nil, nil, nil }

package mgmtapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// caller is an authenticated client.
type caller struct {
	clientID string
	scopes   map[string]bool
	global   bool
}

// callerKey carries the authenticated *caller in a request's context.
type callerKey struct{}

// Authenticate checks the bearer token of a request to the API, before
// anything is routed (the API answers 401 to any request without a valid
// token), and returns the request that carries the caller to its route.
func (s *Server) Authenticate(r *http.Request) (*http.Request, *wire.Error) {
	c, e := s.authenticate(r)
	if e != nil {
		return nil, e
	}
	return r.WithContext(context.WithValue(r.Context(), callerKey{}, c)), nil
}

// authenticate checks the bearer token.
func (s *Server) authenticate(r *http.Request) (*caller, *wire.Error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, wire.NewErr(401, "Missing authentication", "")
	}
	raw, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || strings.Count(raw, ".") != 2 {
		return nil, wire.NewErr(401, "Invalid token", "")
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(raw, claims, func(t *jwt.Token) (any, error) {
		return s.key, nil
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithExpirationRequired(), jwt.WithIssuer("https://"+s.Host+"/"))
	switch {
	case err == nil:
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, wire.NewErr(401, "Expired token received for JSON Web Token validation", "")
	case errors.Is(err, jwt.ErrTokenSignatureInvalid), errors.Is(err, jwt.ErrTokenUnverifiable):
		return nil, wire.NewErr(401, "Invalid token signature", "")
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return nil, wire.NewErr(401, "Invalid token issuer", "")
	default:
		return nil, wire.NewErr(401, "Invalid token", "")
	}
	aud, _ := claims.GetAudience()
	if len(aud) != 1 || aud[0] != s.Audience() {
		return nil, wire.NewErr(401, "Bad audience: "+strings.Join(aud, " "), "")
	}
	azp, _ := claims["azp"].(string)
	s.Lock()
	client, known := s.St.Clients[azp]
	s.Unlock()
	if !known {
		return nil, wire.NewErr(401, "Invalid token", "")
	}
	c := &caller{clientID: azp, scopes: map[string]bool{}, global: client.Global}
	if sc, ok := claims["scope"].(string); ok {
		for _, x := range strings.Fields(sc) {
			c.scopes[x] = true
		}
	}
	return c, nil
}

// may refuses a caller without the scope a route needs.
func (c *caller) may(scope string) *wire.Error {
	if c == nil {
		return wire.NewErr(401, "Missing authentication", "")
	}
	if scope != "" && !c.scopes[scope] {
		return wire.NewErr(403, "Insufficient scope, expected any of: "+scope, "insufficient_scope")
	}
	return nil
}

// mayAny refuses a caller with none of scopes.
func (c *caller) mayAny(scopes ...string) *wire.Error {
	if c == nil {
		return wire.NewErr(401, "Missing authentication", "")
	}
	for _, sc := range scopes {
		if c.scopes[sc] {
			return nil
		}
	}
	return wire.NewErr(403, "Insufficient scope, expected any of: "+strings.Join(scopes, ","), "insufficient_scope")
}

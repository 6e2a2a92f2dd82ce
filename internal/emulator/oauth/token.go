package oauth

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

// processKey is made once, and every tenant this process serves signs
// with it: a 2048-bit key takes a tenth of a second or more of CPU to make,
// and the tests start a tenant each. A tenant still refuses another
// tenant's tokens, which name the other tenant as issuer and audience
// (mgmtapi/auth.go checks both).
var processKey = sync.OnceValues(func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) })

// signingKey is the tenant's signing key and its id.
func signingKey() (*rsa.PrivateKey, string, error) {
	k, err := processKey()
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(k.PublicKey.N.Bytes())
	return k, base64.RawURLEncoding.EncodeToString(sum[:12]), nil
}

func oauthErr(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

// token is POST /oauth/token: client credentials or a custom token
// exchange (exchange.go), JSON or form, credentials in the body or as HTTP
// Basic.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	fields := map[string]string{}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var m map[string]any
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			oauthErr(w, 400, "invalid_request", "The request body is not valid JSON.")
			return
		}
		for k, v := range m {
			if str, ok := v.(string); ok {
				fields[k] = str
			}
		}
	} else {
		if err := r.ParseForm(); err != nil {
			oauthErr(w, 400, "invalid_request", "The request body is not a valid form.")
			return
		}
		for k := range r.PostForm {
			fields[k] = r.PostForm.Get(k)
		}
	}
	if id, secret, ok := r.BasicAuth(); ok {
		fields["client_id"], fields["client_secret"] = id, secret
	}
	if fields["grant_type"] == TokenExchangeGrant {
		s.exchangeGrant(w, r, fields)
		return
	}
	if fields["grant_type"] == "refresh_token" {
		s.refreshGrant(w, fields)
		return
	}
	if fields["grant_type"] != "client_credentials" {
		oauthErr(w, 403, "unsupported_grant_type", "Unsupported grant type: "+fields["grant_type"])
		return
	}
	s.Lock()
	tok, status, code, desc := s.issue(fields)
	s.Unlock()
	if status != 0 {
		oauthErr(w, status, code, desc)
		return
	}
	reply := map[string]any{"access_token": tok.signed, "token_type": "Bearer", "expires_in": int64(tok.life.Seconds())}
	if tok.scope != "" {
		reply["scope"] = tok.scope
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(reply)
}

// issued is an access token the token endpoint made.
type issued struct {
	signed string
	life   time.Duration
	scope  string
}

// issue makes a client credentials token for fields, or says why not
// (status, error code, description). The client authenticates with its
// id and secret; the audience is an API of the tenant; the client must
// have the client_credentials grant type (assumption: the reference does
// not record the refusal) and a client grant for the API, whose scopes the
// token carries (reference §6: 403 access_denied without one); a scope
// parameter narrows them, and one the grant does not give is left out, or
// refused with --assume ungranted_scope=refuse (the reference does not
// say). The token lives the API's token_lifetime
// (reference §6), the Management API's as Options.TokenLifetime sets it,
// or as long as the client's TokenLifetime when that is set. An HS256 API's
// tokens are signed with its signing secret. s.mu is held.
func (s *Server) issue(fields map[string]string) (tok issued, status int, code, desc string) {
	c, ok := s.St.Clients[fields["client_id"]]
	if !ok || c.Secret != fields["client_secret"] {
		return tok, 401, "access_denied", "Unauthorized"
	}
	aud := fields["audience"]
	if aud == "" {
		aud = s.DefaultAudience() // the tenant settings' default_audience
	}
	if aud == "" {
		return tok, 403, "access_denied", "No audience parameter was provided, and no default audience has been configured"
	}
	rs := s.FindResourceServer(aud)
	if rs == nil || rs.Identifier != aud {
		return tok, 403, "access_denied", "Service not found: " + aud
	}
	if !slices.Contains(c.Strings("grant_types"), "client_credentials") {
		return tok, 403, "unauthorized_client", "Grant type 'client_credentials' not allowed for the client."
	}
	g := s.GrantFor(c.ID, aud)
	if g == nil {
		return tok, 403, "access_denied", fmt.Sprintf("Client is not authorized to access %q. You need to create a \"client-grant\" "+
			"associated to this API. See: https://auth0.com/docs/api/v2#!/Client_Grants/post_client_grants", aud)
	}
	scopes := g.Scopes(rs)
	if req := strings.Fields(fields["scope"]); len(req) > 0 {
		var narrowed, ungranted []string
		for _, sc := range req {
			if slices.Contains(scopes, sc) {
				narrowed = append(narrowed, sc)
			} else {
				ungranted = append(ungranted, sc)
			}
		}
		if len(ungranted) > 0 && s.Assume.UngrantedScope == "refuse" {
			return tok, 403, "access_denied", "Client has not been granted scopes: " + strings.Join(ungranted, ", ")
		}
		scopes = narrowed
	}
	tok.life = time.Duration(rs.TokenLifetime) * time.Second
	if rs.IsSystem && aud == s.Audience() {
		tok.life = s.tokenLifetime
	}
	if c.TokenLifetime > 0 {
		tok.life = c.TokenLifetime
	}
	now := time.Now()
	claims := jwt.MapClaims{
		"iss": s.issuer(), "sub": c.ID + "@clients", "aud": aud,
		"iat": now.Unix(), "exp": now.Add(tok.life).Unix(), "gty": "client-credentials", "azp": c.ID,
	}
	if len(scopes) > 0 {
		tok.scope = strings.Join(scopes, " ")
		claims["scope"] = tok.scope
	}
	var err error
	if rs.SigningAlg == "HS256" && rs.SigningSecret != nil {
		tok.signed, err = jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(*rs.SigningSecret))
	} else {
		t := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
		t.Header["kid"] = s.kid
		tok.signed, err = t.SignedString(s.key)
	}
	if err != nil {
		return tok, 500, "server_error", err.Error()
	}
	return tok, 0, "", ""
}

func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	pub := s.key.PublicKey
	wire.WriteJSON(w, 200, map[string]any{"keys": []map[string]any{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": s.kid,
		"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}})
}

// signingCert is the tenant's signing certificate, which every client shows
// in signing_keys [O]: a self-signed certificate of the key that signs the
// emulator's tokens.
func signingCert(host string, key *rsa.PrivateKey) string {
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: host},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(10 * 365 * 24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// issuer is the tokens' iss, the discovery document's issuer: the tenant's
// https origin with a trailing slash, whatever scheme the request came on.
func (s *Server) issuer() string { return "https://" + s.Host + "/" }

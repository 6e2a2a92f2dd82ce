package emulator

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"

	"github.com/golang-jwt/jwt/v5"
)

func newSigningKey() (*rsa.PrivateKey, string, error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
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
	if fields["grant_type"] == tokenExchangeGrant {
		s.exchangeGrant(w, r, fields)
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
		tok.life = s.opts.TokenLifetime
	}
	if c.TokenLifetime > 0 {
		tok.life = c.TokenLifetime
	}
	now := time.Now()
	claims := jwt.MapClaims{
		"iss": "https://" + s.Host + "/", "sub": c.ID + "@clients", "aud": aud,
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

// caller is an authenticated client.
type caller struct {
	clientID string
	scopes   map[string]bool
	global   bool
}

// callerKey carries the authenticated *caller in a request's context.
type callerKey struct{}

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
		return &s.key.PublicKey, nil
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

// selfSigned makes a certificate for 127.0.0.1, ::1 and localhost and
// writes it as PEM to a file clients can trust (SSL_CERT_FILE), alone in a
// temporary folder that Close removes.
func selfSigned() (tls.Certificate, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "tenant-emulator"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(30 * 24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.IPv6loopback}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	dir, err := os.MkdirTemp("", "tenant-emulator-")
	if err != nil {
		return tls.Certificate{}, "", err
	}
	caFile := filepath.Join(dir, "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(caFile, pemBytes, 0o644); err != nil {
		_ = os.RemoveAll(dir)
		return tls.Certificate{}, "", err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, caFile, nil
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

package emulator

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"

	"github.com/golang-jwt/jwt/v5"
)

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
		key, _ := s.oauth.Key()
		return &key.PublicKey, nil
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

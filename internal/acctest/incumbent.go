package acctest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// IncumbentEnv names the environment variable that gives the folder holding
// the incumbent provider's binary, terraform-provider-auth0 (the auth0/auth0
// provider, version IncumbentVersion). Tests and benchmarks that compare
// with it or migrate from it skip, saying so, when it is not set.
const IncumbentEnv = "TENANT_INCUMBENT_PROVIDER"

// IncumbentVersion is the incumbent provider's version the tests use.
const IncumbentVersion = "1.54.1"

// Incumbent installs the incumbent provider into the filesystem mirror the
// CLI working folders use, so that a configuration requiring auth0/auth0
// initialises offline. It returns an error that says what is missing.
func Incumbent() error {
	dir := os.Getenv(IncumbentEnv)
	if dir == "" {
		return fmt.Errorf("%s is not set to the folder holding terraform-provider-auth0 %s", IncumbentEnv, IncumbentVersion)
	}
	bin := filepath.Join(dir, "terraform-provider-auth0")
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("%s: %w", IncumbentEnv, err)
	}
	m, err := mirror()
	if err != nil {
		return err
	}
	return mirrorProvider(m, "auth0/auth0", IncumbentVersion, bin)
}

// RequireIncumbent skips a test when the incumbent provider is not there.
func RequireIncumbent(t testing.TB) {
	t.Helper()
	if err := Incumbent(); err != nil {
		t.Skipf("needs the incumbent provider: %v", err)
	}
}

// IncumbentToken is an access token the emulator issued, for the
// incumbent's api_token (the incumbent's client credentials flow is not
// used against the emulator). The emulator must serve TLS: the incumbent
// speaks only HTTPS, and the terraform process needs SSL_CERT_FILE set to
// the emulator's CA file.
func IncumbentToken(emu *emulator.Server) (string, error) {
	hc, err := EmulatorHTTPClient(emu)
	if err != nil {
		return "", err
	}
	cc := clientcredentials.Config{
		ClientID:       emu.ClientID(),
		ClientSecret:   emu.ClientSecret(),
		TokenURL:       emu.Domain() + "/oauth/token",
		EndpointParams: url.Values{"audience": {emu.Audience()}},
		AuthStyle:      oauth2.AuthStyleInParams,
	}
	tok, err := cc.Token(context.WithValue(context.Background(), oauth2.HTTPClient, hc))
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}

// IncumbentProviderHCL is the incumbent's provider block for the emulator:
// its host and port as the domain, and IncumbentToken as api_token.
func IncumbentProviderHCL(emu *emulator.Server) (string, error) {
	tok, err := IncumbentToken(emu)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("provider \"auth0\" {\n  domain    = %q\n  api_token = %q\n}\n", strings.TrimPrefix(emu.Domain(), "https://"), tok), nil
}

// EmulatorHTTPClient is an HTTP client that trusts the emulator's TLS
// certificate (the emulator must serve TLS).
func EmulatorHTTPClient(emu *emulator.Server) (*http.Client, error) {
	if emu.CAFile() == "" {
		return nil, fmt.Errorf("the emulator does not serve TLS")
	}
	pem, err := os.ReadFile(emu.CAFile())
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}, nil
}

// Writes counts the requests of the routes that change something in the
// tenant, from the emulator's counts by route (the token request apart).
func Writes(byRoute map[string]int64) int64 {
	var n int64
	for route, count := range byRoute {
		if !strings.HasPrefix(route, "GET ") && route != "POST /oauth/token" {
			n += count
		}
	}
	return n
}

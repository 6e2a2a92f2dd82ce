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
	"runtime"
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
	plat := filepath.Join(m, "registry.terraform.io", "auth0", "auth0", IncumbentVersion, runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.MkdirAll(plat, 0o755); err != nil {
		return err
	}
	link := filepath.Join(plat, "terraform-provider-auth0_v"+IncumbentVersion)
	if err := os.Symlink(bin, link); err != nil && !os.IsExist(err) {
		return err
	}
	return nil
}

// RequireIncumbent skips a test when the incumbent provider is not there.
func RequireIncumbent(t testing.TB) {
	t.Helper()
	if err := Incumbent(); err != nil {
		t.Skipf("needs the incumbent provider: %v", err)
	}
}

// IncumbentProviderHCL is the incumbent's provider block for the emulator,
// which must serve TLS (the incumbent speaks only HTTPS): its host and port
// as the domain, and an access token the emulator issued as api_token. The
// terraform process needs SSL_CERT_FILE set to the emulator's CA file.
func IncumbentProviderHCL(emu *emulator.Server) (string, error) {
	if emu.CAFile() == "" {
		return "", fmt.Errorf("the incumbent provider needs the emulator to serve TLS")
	}
	pem, err := os.ReadFile(emu.CAFile())
	if err != nil {
		return "", err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
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
	return fmt.Sprintf("provider \"auth0\" {\n  domain    = %q\n  api_token = %q\n}\n", strings.TrimPrefix(emu.Domain(), "https://"), tok.AccessToken), nil
}

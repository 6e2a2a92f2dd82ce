package e2e_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

var jwtPattern = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`)

// leakCheck runs terraform commands with TF_LOG=TRACE and asserts that no
// secret appears in the logs, the diagnostics or the plan output.
func leakCheck(t *testing.T, cli *acctest.CLI, secrets map[string]string, commands ...[]string) {
	t.Helper()
	logFile := filepath.Join(t.TempDir(), "trace.log")
	cli.Env = append(cli.Env, "TF_LOG=TRACE", "TF_LOG_PATH="+logFile)
	var outputs strings.Builder
	for _, args := range commands {
		out, err := cli.Run(args...)
		outputs.WriteString(out)
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out)
		}
	}
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logs), "/api/v2/") {
		t.Fatal("the trace log holds no request line: the provider's logs were not captured")
	}
	for what, text := range map[string]string{"trace log": string(logs), "command output": outputs.String()} {
		for name, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("the %s contains the %s", what, name)
			}
		}
		if m := jwtPattern.FindString(text); m != "" {
			t.Errorf("the %s contains an access token: %.40s...", what, m)
		}
	}
	t.Logf("checked %d KiB of TRACE logs and %d KiB of output for %d secrets and any JWT", len(logs)/1024, outputs.Len()/1024, len(secrets))
}

func TestSecrets_clientCredentials(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	const signing = "sig-6c1f0e0d2b7a4e59a1"
	cli := acctest.NewCLI(t, map[string]string{"main.tf": `
provider "tenant" {}

resource "tenant_resource_server" "hs" {
  identifier     = "https://api.example.com/secret"
  signing_alg    = "HS256"
  signing_secret = "` + signing + `"
}

resource "tenant_resource_server" "generated" {
  identifier  = "https://api.example.com/generated"
  signing_alg = "HS256"
}
`})
	// Credentials come from the environment, the way CI passes them.
	cli.Env = append(cli.Env, "TENANT_DOMAIN="+emu.Domain(), "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret())
	leakCheck(t, cli, map[string]string{"client secret": emu.ClientSecret(), "signing secret": signing},
		[]string{"apply", "-auto-approve", "-input=false", "-no-color"},
		[]string{"plan", "-input=false", "-no-color"},
	)
	// The generated secret is in the tenant only (the state holds a secret
	// only when the configuration sets it), and must not be in the state
	// nor in the logs of a destroy.
	generated := ""
	for _, raw := range emu.State().ResourceServers {
		var rs struct {
			Identifier    string `json:"identifier"`
			SigningSecret string `json:"signing_secret"`
		}
		_ = json.Unmarshal(raw, &rs)
		if rs.Identifier == "https://api.example.com/generated" {
			generated = rs.SigningSecret
		}
	}
	if len(generated) < 16 {
		t.Fatalf("no generated signing secret in the tenant: %q", generated)
	}
	if show, _ := cli.Run("show", "-json"); strings.Contains(show, generated) {
		t.Fatal("the state holds the generated signing secret")
	}
	leakCheck(t, cli, map[string]string{"client secret": emu.ClientSecret(), "signing secret": signing, "generated signing secret": generated},
		[]string{"destroy", "-auto-approve", "-input=false", "-no-color"})
}

func TestSecrets_apiToken(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	resp, err := http.PostForm(emu.Domain()+"/oauth/token", url.Values{"grant_type": {"client_credentials"},
		"client_id": {emu.ClientID()}, "client_secret": {emu.ClientSecret()}, "audience": {emu.Audience()}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	cli := acctest.NewCLI(t, map[string]string{"main.tf": `
provider "tenant" {}

data "tenant_role" "demo" {
  name = "demo-role"
}

output "role" {
  value = data.tenant_role.demo.id
}
`})
	cli.Env = append(cli.Env, "TENANT_DOMAIN="+emu.Domain(), "TENANT_API_TOKEN="+tok.AccessToken)
	leakCheck(t, cli, map[string]string{"api_token": tok.AccessToken}, []string{"apply", "-auto-approve", "-input=false", "-no-color"})
}

// TestTokens_expireMidRun applies with 2-second tokens for longer than a
// token lives: the provider fetches new ones and the apply completes.
func TestTokens_expireMidRun(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{TokenLifetime: 2 * time.Second, Faults: emulator.Faults{LatencyMS: 150}})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	cli := acctest.NewCLI(t, map[string]string{"main.tf": acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + `
resource "tenant_resource_server" "api" {
  count      = 40
  identifier = "https://api.example.com/expiry/${count.index}"
}
`})
	start := time.Now()
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=2"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	took := time.Since(start)
	st := emu.Stats()
	tokens := st.ByRoute["POST /oauth/token"]
	t.Logf("apply took %v with 2s tokens: %d token requests for %d API requests, %d answered 401", took.Round(100*time.Millisecond), tokens, st.Total-tokens, st.ByStatus["401"])
	if took < 4*time.Second || tokens < 2 {
		t.Fatalf("the apply (%v, %d tokens) did not outlive a token; the test proves nothing", took, tokens)
	}
	// Reused tokens cost about one per lifetime (and one per provider
	// process), however long a loaded machine makes the apply; one per
	// request would be tens.
	if allowed := 2*int64(took/(2*time.Second)) + 4; tokens > allowed {
		t.Fatalf("%d token requests for %d API requests in %v: tokens are not reused (at most %d for 2s tokens)", tokens, st.Total-tokens, took, allowed)
	}
	if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, out)
	}
}

// TestSecrets_privateKeyInPEM: a private key pasted where token encryption
// takes a public key is refused at plan, and neither the diagnostics nor
// the logs show any of it.
func TestSecrets_privateKeyInPEM(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	private := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	body := strings.Split(private, "\n")[5] // a line of the key's base64
	cli := acctest.NewCLI(t, map[string]string{"main.tf": acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + `
variable "pem" {
  type = string
}

resource "tenant_resource_server" "x" {
  identifier = "https://api.example.com/encrypted"
  token_encryption = {
    format         = "compact-nested-jwe"
    encryption_key = { alg = "RSA-OAEP-256", pem = var.pem }
  }
}
`})
	logFile := filepath.Join(t.TempDir(), "trace.log")
	cli.Env = append(cli.Env, "TF_LOG=TRACE", "TF_LOG_PATH="+logFile, "TF_VAR_pem="+private)
	emu.ResetStats()
	out, err := cli.Run("plan", "-input=false", "-no-color")
	if err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), `holds a "RSA PRIVATE KEY" PEM block`) {
		t.Fatalf("the private key was not refused at plan: %v\n%.3000s", err, out)
	}
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"output": out, "trace log": string(logs)} {
		if strings.Contains(text, body) {
			t.Errorf("the %s shows the private key", what)
		}
	}
	if n := emu.Stats().Total; n != 0 {
		t.Errorf("%d requests sent for a configuration refused at plan", n)
	}
}

// TestLogging_asDocumented: TF_LOG_PROVIDER=DEBUG, as the README says,
// logs every request of the provider, and TRACE adds the bodies.
func TestLogging_asDocumented(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	cli := acctest.NewCLI(t, map[string]string{"main.tf": acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) +
		"resource \"tenant_role\" \"r\" {\n  name = \"logged\"\n}\n"})
	// Fields of a log line come in no fixed order (OpenTofu shuffles them).
	for level, want := range map[string][]string{"DEBUG": {"request:", "method=GET", "path=/api/v2/roles"}, "TRACE": {`"name":"logged"`}} {
		logFile := filepath.Join(t.TempDir(), "provider.log")
		run := *cli
		run.Env = append(append([]string(nil), cli.Env...), "TF_LOG_PROVIDER="+level, "TF_LOG_PATH="+logFile)
		if out, err := run.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Fatalf("apply: %v\n%s", err, out)
		}
		logs, err := os.ReadFile(logFile)
		if err != nil {
			t.Fatal(err)
		}
		if !hasLineWithAll(string(logs), want) {
			t.Errorf("TF_LOG_PROVIDER=%s: no line of the log has all of %q", level, want)
		}
		if out, err := run.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Fatalf("destroy: %v\n%s", err, out)
		}
	}
}

// hasLineWithAll reports whether one line of text holds every one of parts.
func hasLineWithAll(text string, parts []string) bool {
	for _, line := range strings.Split(text, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}

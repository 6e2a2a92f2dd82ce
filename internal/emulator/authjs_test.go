package emulator

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/actionruntime"
)

// authJS is the platform's JavaScript auth client, from npm, at the
// version its custom token exchange was tried with.
var authJS = actionruntime.Dependency{Name: "@auth0/auth0-auth-js", Version: "1.16.0"}

// authJSScript exchanges a subject token with AuthClient.exchangeToken,
// which reads the OpenID discovery document first, and prints what it got:
// the access token, or the error's OAuth code and description.
const authJSScript = `
const { AuthClient } = require('@auth0/auth0-auth-js');
const e = process.env;
(async () => {
  const client = new AuthClient({ domain: e.DOMAIN, clientId: e.CLIENT_ID, clientSecret: e.CLIENT_SECRET });
  try {
    const r = await client.exchangeToken({ subjectTokenType: e.SUBJECT_TOKEN_TYPE, subjectToken: e.SUBJECT_TOKEN, audience: e.AUDIENCE, scope: e.SCOPE });
    console.log(JSON.stringify({ access_token: r.accessToken, scope: r.scope, id_token: !!r.idToken }));
  } catch (err) {
    console.log(JSON.stringify({ name: err.name, message: err.message, error: err.cause && err.cause.error, error_description: err.cause && err.cause.error_description }));
  }
})();
`

// The platform's JS auth client exchanges a token against the emulator
// over TLS, as an application team's code does: accepted with the right
// sub, aud and scope; refused with the action's reason.
func TestAuthJS_exchangesAgainstTheEmulator(t *testing.T) {
	requireNode(t)
	in := actionruntime.NewInstaller(actionruntime.InstallerOptions{})
	defer in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	outcome, detail, err := in.Install([]actionruntime.Dependency{authJS}, t.Logf).Wait(ctx)
	switch {
	case err != nil:
		t.Fatal(err)
	case outcome == actionruntime.NotInstalled:
		t.Skipf("npm cannot install %s@%s here (npm or the npm registry is not available): %s", authJS.Name, authJS.Version, detail)
	case outcome != actionruntime.Installed:
		t.Fatalf("installing %s@%s: %s", authJS.Name, authJS.Version, detail)
	}
	pkgDir := in.Install([]actionruntime.Dependency{authJS}, t.Logf).Dir

	h := start(t, Options{TLS: true, BuildDelay: 20 * time.Millisecond, ExchangeRateLimit: -1})
	pem, err := os.ReadFile(h.s.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	call := func(token, method, path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, h.s.Domain()+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var m map[string]any
		if resp.StatusCode >= 300 || json.Unmarshal(b, &m) != nil {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return m
	}
	tok := call("", "POST", "/oauth/token", fmt.Sprintf(`{"grant_type":"client_credentials","client_id":%q,"client_secret":%q,"audience":%q}`,
		h.s.ClientID(), h.s.ClientSecret(), h.s.Audience()))["access_token"].(string)
	call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"`+ordersAPI+`","skip_consent_for_verifiable_first_party_clients":true,"scopes":[{"value":"read:orders"}]}`)
	code, _ := json.Marshal(actionCode(`
  if (event.transaction.subject_token === "forged") { api.access.rejectInvalidSubjectToken("The subject token is not a valid legacy IdP token."); return; }
  ` + createLegacy))
	action := call(tok, "POST", actionsPath, `{"name":"legacy","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":`+string(code)+`,"deploy":true}`)["id"].(string)
	deadline := time.Now().Add(time.Minute)
	for call(tok, "GET", actionsPath+"/"+action, "")["deployed_version"] == nil {
		if time.Now().After(deadline) {
			t.Fatal("the action was not deployed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	call(tok, "POST", "/api/v2/token-exchange-profiles", fmt.Sprintf(`{"name":"legacy","subject_token_type":%q,"action_id":%q,"type":"custom_authentication"}`, legacyType, action))
	client := call(tok, "POST", "/api/v2/clients", `{"name":"app","is_first_party":true,"oidc_conformant":true,"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`)

	script := filepath.Join(t.TempDir(), "exchange.cjs")
	if err := os.WriteFile(script, []byte(authJSScript), 0o600); err != nil {
		t.Fatal(err)
	}
	exchange := func(subject string) map[string]any {
		t.Helper()
		cmd := exec.Command("node", script)
		cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(pkgDir, "node_modules"), "NODE_EXTRA_CA_CERTS="+h.s.CAFile(), "DOMAIN="+strings.TrimPrefix(h.s.Domain(), "https://"),
			"CLIENT_ID="+client["client_id"].(string), "CLIENT_SECRET="+client["client_secret"].(string),
			"SUBJECT_TOKEN_TYPE="+legacyType, "SUBJECT_TOKEN="+subject, "AUDIENCE="+ordersAPI, "SCOPE=openid read:orders")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v: %s", err, out)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("node printed %s", out)
		}
		return m
	}
	got := exchange("legacy-js")
	at, _ := got["access_token"].(string)
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(at, claims); err != nil {
		t.Fatalf("accepted: %v", got)
	}
	aud, _ := claims.GetAudience()
	if claims["sub"] != "auth0|legacy-js" || len(aud) == 0 || aud[0] != ordersAPI || claims["scope"] != "openid read:orders" || got["id_token"] != true {
		t.Fatalf("claims %v, answer %v", claims, got)
	}
	got = exchange("forged")
	if got["name"] != "TokenExchangeError" || got["error"] != "invalid_request" || got["error_description"] != "The subject token is not a valid legacy IdP token." {
		t.Fatalf("refused: %v", got)
	}
}

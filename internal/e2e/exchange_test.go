package e2e_test

import (
	"context"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// legacyKey signs the legacy identity provider's tokens in these tests; the
// action of examples/token-exchange checks them with it (its secret).
const legacyKey = "e2e-legacy-signing-key-7c1f"

// legacyToken is a subject token of the legacy identity provider for sub,
// signed with key.
func legacyToken(t *testing.T, sub, key string) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "https://legacy-idp.example.com/", "sub": sub, "email": sub + "@example.com",
		"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tokenExchangeDeployment is examples/token-exchange applied to an emulator.
type tokenExchangeDeployment struct {
	emu          *emulator.Server
	cli          *acctest.CLI
	clientID     string // the bridge application
	clientSecret string
	subjectType  string
	audience     string
}

// deployTokenExchange applies examples/token-exchange, as it is, to a new
// emulator, and reads the bridge application's secret as an operator would
// (GET /clients/{id}, read:client_keys).
func deployTokenExchange(t *testing.T) *tokenExchangeDeployment {
	t.Helper()
	requireAcc(t)
	// The exchanges below come faster than the exchange's own rate limit
	// allows (10 a second): they test the throttle, not the limit.
	emu, err := emulator.Start(emulator.Options{Log: &testLog{t}, ExchangeRateLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	main, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "token-exchange", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	cli := acctest.NewCLI(t, map[string]string{"main.tf": string(main)})
	cli.Env = append(cli.Env, "TENANT_DOMAIN="+emu.Domain(), "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret(),
		"TENANT_API_TOKEN=", "TF_VAR_legacy_signing_key="+legacyKey)
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply of examples/token-exchange: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Errorf("destroy: %v\n%s", err, out)
		}
	})
	d := &tokenExchangeDeployment{emu: emu, cli: cli}
	for name, dst := range map[string]*string{"bridge_client_id": &d.clientID, "subject_token_type": &d.subjectType, "orders_identifier": &d.audience} {
		out, err := cli.Run("output", "-raw", name)
		if err != nil {
			t.Fatalf("output %s: %v\n%s", name, err, out)
		}
		*dst = out
	}
	api, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.GetClient(context.Background(), d.clientID)
	if err != nil || c.ClientSecret == "" {
		t.Fatalf("the bridge's secret: %v", err)
	}
	d.clientSecret = c.ClientSecret
	return d
}

// testLog writes the emulator's log (the actions' output, a line per
// exchange) into the test's.
type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// exchange is what an application sends: the token-exchange grant, its
// credentials in the form; more sets or replaces parameters.
func (d *tokenExchangeDeployment) exchange(t *testing.T, subject string, more ...string) (int, map[string]any) {
	t.Helper()
	form := url.Values{
		"grant_type": {"urn:ietf:params:oauth:grant-type:token-exchange"}, "client_id": {d.clientID}, "client_secret": {d.clientSecret},
		"subject_token": {subject}, "subject_token_type": {d.subjectType}, "audience": {d.audience}, "scope": {"openid email read:orders"},
	}
	for i := 0; i+1 < len(more); i += 2 {
		form.Set(more[i], more[i+1])
	}
	resp, err := http.PostForm(d.emu.Domain()+"/oauth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("the answer (%d) is not JSON: %v", resp.StatusCode, err)
	}
	return resp.StatusCode, out
}

// verify checks a token the way an API does: its signature with the
// tenant's JWKS, its expiry, its issuer.
func (d *tokenExchangeDeployment) verify(t *testing.T, token string) jwt.MapClaims {
	t.Helper()
	resp, err := http.Get(d.emu.Domain() + "/.well-known/jwks.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var jwks struct {
		Keys []struct{ Kid, Kty, Alg, N, E string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&jwks); err != nil {
		t.Fatal(err)
	}
	issuer := "https://" + strings.TrimPrefix(d.emu.Domain(), "http://") + "/"
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(tok *jwt.Token) (any, error) {
		for _, k := range jwks.Keys {
			if k.Kid == tok.Header["kid"] && k.Kty == "RSA" {
				n, _ := base64.RawURLEncoding.DecodeString(k.N)
				e, _ := base64.RawURLEncoding.DecodeString(k.E)
				return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}, nil
			}
		}
		return nil, fmt.Errorf("the JWKS has no key %v", tok.Header["kid"])
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithExpirationRequired(), jwt.WithIssuer(issuer))
	if err != nil {
		t.Fatalf("the token does not verify: %v", err)
	}
	return claims
}

// TestTokenExchange_application exchanges legacy tokens against
// examples/token-exchange as an application does, with plain HTTP: the
// tokens of a valid one verify with the tenant's JWKS and name the legacy
// user, and the refusals are the tenant's.
func TestTokenExchange_application(t *testing.T) {
	// CLI work: deployTokenExchange; the rest is HTTP.
	acctest.CLIWorkDoneBy(t, "TestTokenExchange_providerLeaksNothing")
	t.Parallel() // its own emulator and folders
	d := deployTokenExchange(t)

	status, out := d.exchange(t, legacyToken(t, "legacy-42", legacyKey))
	if status != 200 || out["token_type"] != "Bearer" || out["expires_in"] != 3600.0 || out["scope"] != "openid email read:orders" {
		t.Fatalf("a valid legacy token: %d %v", status, out)
	}
	at := d.verify(t, out["access_token"].(string))
	aud, _ := at.GetAudience()
	iat, _ := at.GetIssuedAt()
	exp, _ := at.GetExpirationTime()
	if at["sub"] != "auth0|legacy-42" || at["azp"] != d.clientID || at["scope"] != "openid email read:orders" ||
		len(aud) == 0 || aud[0] != d.audience || exp.Sub(iat.Time) != time.Hour {
		t.Fatalf("access token claims %v", at)
	}
	id := d.verify(t, out["id_token"].(string))
	if id["sub"] != "auth0|legacy-42" || id["aud"] != d.clientID || id["email"] != "legacy-42@example.com" || id["email_verified"] != true {
		t.Fatalf("ID token claims %v", id)
	}

	for _, tc := range []struct {
		name        string
		subject     string
		more        []string
		status      int
		code, descr string
	}{
		{"forged", legacyToken(t, "legacy-42", "an-attacker-s-key"), nil, 400, "invalid_request", "The subject token is not a valid legacy IdP token."},
		{"not a JWT", "legacy-42", nil, 400, "invalid_request", "The subject token is not a valid legacy IdP token."},
		{"another type", legacyToken(t, "legacy-42", legacyKey), []string{"subject_token_type", "urn:acme:other-token"}, 400, "invalid_request", ""},
		{"a wrong secret", legacyToken(t, "legacy-42", legacyKey), []string{"client_secret", "not-the-secret"}, 401, "access_denied", "Unauthorized"},
		{"the provider's client", legacyToken(t, "legacy-42", legacyKey), []string{"client_id", d.emu.ClientID(), "client_secret", d.emu.ClientSecret()}, 403, "unauthorized_client", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, out := d.exchange(t, tc.subject, tc.more...)
			if status != tc.status || out["error"] != tc.code || (tc.descr != "" && out["error_description"] != tc.descr) || out["access_token"] != nil {
				t.Fatalf("got %d %v, want %d %s %q", status, out, tc.status, tc.code, tc.descr)
			}
		})
	}

	// Two forged tokens were rejected above; eight more spend the address's
	// ten attempts, and then even a valid token gets 429 (Suspicious IP
	// Throttling, token-exchange-flow.md §4).
	for i := 0; i < 8; i++ {
		if status, out := d.exchange(t, "forged"); status != 400 {
			t.Fatalf("rejected token %d: %d %v", i+3, status, out)
		}
	}
	status, out = d.exchange(t, legacyToken(t, "legacy-42", legacyKey))
	if status != 429 || out["error"] != "too_many_attempts" {
		t.Fatalf("after ten rejected tokens: %d %v", status, out)
	}
}

// TestTokenExchange_providerLeaksNothing proves an exchange with the
// provider, as the testing guide's helper module does, with TRACE logs
// and a saved plan, a support agent acting for the user: no log line, no
// output, no plan file and no state holds the subject token, the actor
// token, the application's secret or any token.
func TestTokenExchange_providerLeaksNothing(t *testing.T) {
	t.Parallel() // its own emulator and folders
	d := deployTokenExchange(t)
	helper, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "testing", "tests", "exchange", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	subject, actor := legacyToken(t, "legacy-42", legacyKey), legacyToken(t, "agent-7", legacyKey)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": string(helper)})
	cli.Env = append(cli.Env, "TENANT_DOMAIN="+d.emu.Domain(), "TENANT_CLIENT_ID="+d.emu.ClientID(), "TENANT_CLIENT_SECRET="+d.emu.ClientSecret(),
		"TENANT_API_TOKEN=", "TF_VAR_client_id="+d.clientID, "TF_VAR_subject_token_type="+d.subjectType, "TF_VAR_audience="+d.audience,
		"TF_VAR_subject_token="+subject, `TF_VAR_scopes=["openid","read:orders"]`, "TF_VAR_expected_user_id=auth0|legacy-42",
		`TF_VAR_expected_scopes=["openid","read:orders"]`, "TF_VAR_actor_token="+actor,
		"TF_VAR_actor_token_type=urn:acme:support-agent-token", "TF_VAR_expected_actor=agent-7")
	secrets := map[string]string{"subject token": subject, "actor token": actor, "application's client secret": d.clientSecret, "provider's client secret": d.emu.ClientSecret()}
	leakCheck(t, cli, secrets,
		[]string{"plan", "-input=false", "-no-color", "-out=exchange.tfplan"},
		[]string{"show", "-no-color", "exchange.tfplan"},
		[]string{"apply", "-input=false", "-no-color", "exchange.tfplan"},
	)
	files := map[string]string{}
	for _, name := range []string{"exchange.tfplan", "terraform.tfstate"} {
		b, err := os.ReadFile(filepath.Join(cli.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	files["exchange.tfplan"] = unzip(t, files["exchange.tfplan"])
	for name, text := range files {
		for what, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds the %s", name, what)
			}
		}
		if m := jwtPattern.FindString(text); m != "" {
			t.Errorf("%s holds a token: %.40s...", name, m)
		}
	}
	// The exchange ran and its postconditions held: a wrong expectation fails the plan.
	cli.Env = append(cli.Env, "TF_VAR_expected_user_id=auth0|legacy-43")
	if out, err := cli.Run("plan", "-input=false", "-no-color"); err == nil || !strings.Contains(out, "The tokens are not for expected_user_id.") {
		t.Fatalf("a wrong expected user passed: %v\n%s", err, out)
	}
}

package emulator

import (
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

const (
	legacyType   = "urn:acme:legacy-token"
	ordersAPI    = "https://api.example.com/orders/"
	createLegacy = `api.authentication.setUserByConnection("Username-Password-Authentication",
    { user_id: event.transaction.subject_token, email: event.transaction.subject_token + "@example.com", email_verified: true },
    { creationBehavior: "create_if_not_exists", updateBehavior: "none" });`
)

// exchangeTenant is an emulator with an API, a deployed
// custom-token-exchange action, its profile, and a client allowed to
// exchange.
type exchangeTenant struct {
	*harness
	tok            string
	actionID       string
	client, secret string
}

// newExchangeTenant deploys code (the body of onExecuteCustomTokenExchange)
// with deps (a JSON list) and secrets (a JSON list).
func newExchangeTenant(t *testing.T, o Options, body, deps, secrets string) *exchangeTenant {
	t.Helper()
	requireNode(t)
	if o.BuildDelay == 0 {
		o.BuildDelay = 20 * time.Millisecond
	}
	if o.ExchangeRateLimit == 0 {
		o.ExchangeRateLimit = -1 // the tests that count on the limit set it
	}
	h := start(t, o)
	x := &exchangeTenant{harness: h, tok: h.admin()}
	h.expect(h.call(x.tok, "POST", "/api/v2/resource-servers", `{"identifier":"`+ordersAPI+`","name":"Orders","token_lifetime":3600,
		"skip_consent_for_verifiable_first_party_clients":true,"scopes":[{"value":"read:orders"},{"value":"cancel:orders"}]}`), 201)
	x.actionID = x.deploy(body, deps, secrets)
	h.expect(h.call(x.tok, "POST", "/api/v2/token-exchange-profiles", fmt.Sprintf(
		`{"name":"legacy","subject_token_type":%q,"action_id":%q,"type":"custom_authentication"}`, legacyType, x.actionID)), 201)
	x.client, x.secret = x.newClient(`{"name":"app","app_type":"regular_web","is_first_party":true,"oidc_conformant":true,
		"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`)
	return x
}

func actionCode(body string) string {
	return "exports.onExecuteCustomTokenExchange = async (event, api) => {\n" + body + "\n};"
}

// deploy creates and deploys an action, and waits until it is deployed.
func (x *exchangeTenant) deploy(body, deps, secrets string) string {
	x.t.Helper()
	if deps == "" {
		deps = "[]"
	}
	if secrets == "" {
		secrets = "[]"
	}
	code, _ := json.Marshal(actionCode(body))
	r := x.call(x.tok, "POST", actionsPath, `{"name":"legacy","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],
		"code":`+string(code)+`,"dependencies":`+deps+`,"secrets":`+secrets+`,"deploy":true}`)
	x.expect(r, 201)
	id := r.json(x.t)["id"].(string)
	x.pollFor(x.tok, id, 2*time.Minute, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
	return id
}

// newClient creates a client from a JSON body and returns its credentials.
func (x *exchangeTenant) newClient(body string) (string, string) {
	x.t.Helper()
	r := x.call(x.tok, "POST", "/api/v2/clients", body)
	x.expect(r, 201)
	m := r.json(x.t)
	return m["client_id"].(string), m["client_secret"].(string)
}

// exchange sends a token exchange of subject with the client's secret in the
// body; more sets or replaces parameters ("" removes one).
func (x *exchangeTenant) exchange(subject string, more ...string) (int, map[string]any) {
	x.t.Helper()
	form := url.Values{
		"grant_type": {oauth.TokenExchangeGrant}, "client_id": {x.client}, "client_secret": {x.secret},
		"subject_token": {subject}, "subject_token_type": {legacyType}, "audience": {ordersAPI}, "scope": {"read:orders"},
	}
	for i := 0; i+1 < len(more); i += 2 {
		if more[i+1] == "" {
			form.Del(more[i])
		} else {
			form.Set(more[i], more[i+1])
		}
	}
	resp, err := http.PostForm(x.s.Domain()+"/oauth/token", form)
	if err != nil {
		x.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		x.t.Fatalf("answer %d is not JSON: %v", resp.StatusCode, err)
	}
	return resp.StatusCode, out
}

// verify checks a token's signature with the tenant's JWKS and its issuer
// (the tenants of one process share a signing key), and returns its claims.
func (x *exchangeTenant) verify(token string) jwt.MapClaims {
	x.t.Helper()
	resp, err := http.Get(x.s.Domain() + "/.well-known/jwks.json")
	if err != nil {
		x.t.Fatal(err)
	}
	defer resp.Body.Close()
	var jwks struct {
		Keys []struct{ Kid, N, E string }
	}
	_ = json.NewDecoder(resp.Body).Decode(&jwks)
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		for _, k := range jwks.Keys {
			if k.Kid == t.Header["kid"] {
				n, _ := base64.RawURLEncoding.DecodeString(k.N)
				e, _ := base64.RawURLEncoding.DecodeString(k.E)
				return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}, nil
			}
		}
		return nil, fmt.Errorf("no key %v in the JWKS", t.Header["kid"])
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithExpirationRequired(), jwt.WithIssuer("https://"+x.s.t.Host+"/"))
	if err != nil {
		x.t.Fatalf("token does not verify with the JWKS: %v", err)
	}
	return claims
}

func (x *exchangeTenant) user(id string) *tenant.User {
	x.s.t.Lock()
	defer x.s.t.Unlock()
	u, ok := x.s.t.St.Users[id]
	if !ok {
		return nil
	}
	c := *u
	return &c
}

func TestExchange_issuesTokensForTheUserTheActionSets(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	status, out := x.exchange("legacy-42", "scope", "openid profile email read:orders write:unknown")
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if out["token_type"] != "Bearer" || out["expires_in"] != 3600.0 || out["scope"] != "openid profile email read:orders" {
		t.Fatalf("answer %v", out)
	}
	at := x.verify(out["access_token"].(string))
	aud, _ := at.GetAudience()
	iat, _ := at.GetIssuedAt()
	exp, _ := at.GetExpirationTime()
	if at["sub"] != "auth0|legacy-42" || at["azp"] != x.client || at["scope"] != "openid profile email read:orders" ||
		at["iss"] != "https://"+x.s.t.Host+"/" || len(aud) != 2 || aud[0] != ordersAPI || aud[1] != "https://"+x.s.t.Host+"/userinfo" ||
		exp.Sub(iat.Time) != time.Hour {
		t.Fatalf("access token claims %v", at)
	}
	id := x.verify(out["id_token"].(string))
	if id["sub"] != "auth0|legacy-42" || id["aud"] != x.client || id["email"] != "legacy-42@example.com" || id["email_verified"] != true || id["nickname"] != "legacy-42" {
		t.Fatalf("ID token claims %v", id)
	}
	u := x.user("auth0|legacy-42")
	if u == nil || u.Email != "legacy-42@example.com" || u.LoginsCount != 1 {
		t.Fatalf("user %+v", u)
	}
	// The same subject again: the user is found, not created twice, and
	// without openid there is no ID token.
	status, out = x.exchange("legacy-42")
	if status != 200 || out["id_token"] != nil || out["scope"] != "read:orders" {
		t.Fatalf("%d %v", status, out)
	}
	if at := x.verify(out["access_token"].(string)); at["aud"] != ordersAPI {
		t.Fatalf("aud without openid: %v", at["aud"])
	}
	if u := x.user("auth0|legacy-42"); u.LoginsCount != 2 || u.CreatedAt == "" {
		t.Fatalf("user after a second exchange %+v", u)
	}
}

// HTTP Basic authenticates the client as the body does, and JSON bodies
// are taken like forms (management-api.md §6).
func TestExchange_clientAuthenticationForms(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	form := url.Values{"grant_type": {oauth.TokenExchangeGrant}, "subject_token": {"basic-1"}, "subject_token_type": {legacyType}, "audience": {ordersAPI}}
	req, _ := http.NewRequest("POST", x.s.Domain()+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(x.client), url.QueryEscape(x.secret))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("Basic: %d", resp.StatusCode)
	}
	body, _ := json.Marshal(map[string]string{"grant_type": oauth.TokenExchangeGrant, "client_id": x.client, "client_secret": x.secret,
		"subject_token": "json-1", "subject_token_type": legacyType, "audience": ordersAPI})
	r := x.call("", "POST", "/oauth/token", string(body))
	if r.status != 200 || x.user("auth0|json-1") == nil {
		t.Fatalf("JSON: %d %s", r.status, r.body)
	}
	if status, out := x.exchange("wrong-secret", "client_secret", "not-the-secret"); status != 401 || out["error"] != "access_denied" {
		t.Fatalf("a wrong secret: %d %v", status, out)
	}
}

// Every refusal of the reference's catalogue, and the assumed answers of
// its open cases, in the OAuth error shape.
func TestExchange_refusals(t *testing.T) {
	log := &emutest.Log{}
	x := newExchangeTenant(t, Options{ExchangeThrottle: ExchangeThrottle{Disabled: true}, Log: log}, `
  const t = event.transaction.subject_token;
  if (t === "forged") { api.access.rejectInvalidSubjectToken("The subject token is not a valid legacy IdP token."); return; }
  if (t === "locked") { api.access.deny("account_locked", "The legacy account is locked."); return; }
  if (t === "outage") { api.access.deny("server_error", "The legacy IdP is down."); return; }
  if (t === "throw") { throw new Error("secret detail"); }
  if (t === "none") { return; }
  if (t === "both") { api.authentication.setUserById("auth0|a"); `+createLegacy+` return; }
  if (t === "by-id") { api.authentication.setUserById("auth0|nobody"); return; }
  if (t === "existing-only") { api.authentication.setUserByConnection("Username-Password-Authentication", { user_id: "ghost" }, { creationBehavior: "none", updateBehavior: "none" }); return; }
  if (t === "other-connection") { api.authentication.setUserByConnection("corporate-ldap", { user_id: "u", email: "u@example.com" }, { creationBehavior: "create_if_not_exists", updateBehavior: "none" }); return; }
  if (t === "no-email") { api.authentication.setUserByConnection("Username-Password-Authentication", { user_id: "u" }, { creationBehavior: "create_if_not_exists", updateBehavior: "none" }); return; }
  if (t === "wide") { const p = { user_id: "w", email: "w@example.com" }; for (let i = 0; i < 23; i++) p["x" + i] = "v"; api.authentication.setUserByConnection("Username-Password-Authentication", p, { creationBehavior: "create_if_not_exists", updateBehavior: "none" }); return; }
  if (t === "bad-option") { api.authentication.setUserByConnection("Username-Password-Authentication", { user_id: "o", email: "o@example.com" }, { creationBehavior: "always", updateBehavior: "none" }); return; }
  if (t === "org") { api.authentication.setOrganization("org_123"); `+createLegacy+` return; }
  `+createLegacy, "", "")
	noExchange, noExchangeSecret := x.newClient(`{"name":"m2m","app_type":"non_interactive","is_first_party":true,"oidc_conformant":true}`)
	thirdParty, thirdPartySecret := x.newClient(`{"name":"3p","is_first_party":false,"oidc_conformant":true,"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`)
	for _, tc := range []struct {
		name, subject string
		more          []string
		status        int
		code, desc    string
	}{
		// §4, from the reference.
		{"rejectInvalidSubjectToken", "forged", nil, 400, "invalid_request", "The subject token is not a valid legacy IdP token."},
		{"deny with a custom code", "locked", nil, 400, "account_locked", "The legacy account is locked."},
		{"deny with server_error", "outage", nil, 500, "server_error", "The legacy IdP is down."},
		// Assumed (§4 [?]).
		{"thrown error", "throw", nil, 500, "server_error", oauth.ActionFailed},
		{"no user set", "none", nil, 500, "server_error", "did not set a user"},
		{"user set twice", "both", nil, 500, "server_error", "set the user 2 times"},
		{"setUserById of nobody", "by-id", nil, 400, "invalid_request", "The user does not exist."},
		{"creationBehavior none", "existing-only", nil, 400, "invalid_request", "creationBehavior is none"},
		{"unknown connection", "other-connection", nil, 500, "server_error", `the connection "corporate-ldap" does not exist`},
		{"create without email", "no-email", nil, 400, "invalid_request", "An email is required"},
		{"25 profile attributes", "wide", nil, 500, "server_error", "25 attributes, at most 24"},
		{"creationBehavior out of its enum", "bad-option", nil, 500, "server_error", "options.creationBehavior must be one of"},
		{"setOrganization", "org", nil, 400, "invalid_request", "The organization does not exist."},
		{"organization parameter of no organization", "ok", []string{"organization", "org_123"}, 400, "invalid_request", "The organization does not exist."},
		{"unknown subject_token_type", "ok", []string{"subject_token_type", "urn:acme:other"}, 400, "invalid_request", `no token exchange profile for the subject_token_type "urn:acme:other"`},
		{"no subject_token", "", nil, 400, "invalid_request", "Missing required parameter: subject_token"},
		{"unknown audience", "ok", []string{"audience", "https://nowhere.example.com/"}, 403, "access_denied", "Service not found: https://nowhere.example.com/"},
		{"client without token_exchange", "ok", []string{"client_id", noExchange, "client_secret", noExchangeSecret}, 403, "unauthorized_client", "allow_any_profile_of_type does not list custom_authentication"},
		{"third-party client", "ok", []string{"client_id", thirdParty, "client_secret", thirdPartySecret}, 403, "unauthorized_client", "first-party"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, out := x.exchange(tc.subject, tc.more...)
			if status != tc.status || out["error"] != tc.code || !strings.Contains(fmt.Sprint(out["error_description"]), tc.desc) {
				t.Fatalf("got %d %v, want %d %s %q", status, out, tc.status, tc.code, tc.desc)
			}
			if out["access_token"] != nil {
				t.Fatalf("a refusal with a token: %v", out)
			}
		})
	}
	// The organization named is on the exchange's log line (fecte, logged
	// before the answer is written), for setOrganization and the parameter.
	if n := strings.Count(log.String(), `The organization does not exist. (no organization has the id or name "org_123")`); n != 2 {
		t.Fatalf("%d log lines name the organization: %s", n, log.String())
	}
	if status, out := x.exchange("ok"); status != 200 || x.user("auth0|ok") == nil {
		t.Fatalf("the same client and action, with a good subject token: %d %v", status, out)
	}
	for _, id := range []string{"auth0|a", "auth0|org", "auth0|w", "auth0|o"} {
		if x.user(id) != nil {
			t.Fatalf("a refused exchange made the user %s", id)
		}
	}
}

// The user must exist and not be blocked (§3); a blocked user is refused
// whichever setUser call names it.
func TestExchange_blockedUser(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  if (event.transaction.subject_token === "by-id") { api.authentication.setUserById("auth0|legacy-7"); return; }
  `+createLegacy, "", "")
	if status, out := x.exchange("legacy-7"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if status, out := x.exchange("by-id"); status != 200 {
		t.Fatalf("setUserById of an existing user: %d %v", status, out)
	}
	x.s.t.Lock()
	blocked := true
	x.s.t.St.Users["auth0|legacy-7"].Blocked = &blocked
	x.s.t.Unlock()
	for _, subject := range []string{"legacy-7", "by-id"} {
		if status, out := x.exchange(subject); status != 401 || out["error"] != "unauthorized" || out["error_description"] != "user is blocked" {
			t.Fatalf("%s: %d %v", subject, status, out)
		}
	}
}

// updateBehavior replace replaces the profile, but email, username, phone
// and the verified flags cannot change; metadata merges, null removes.
func TestExchange_updateBehaviourAndMetadata(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  const [id, email, name] = event.transaction.subject_token.split(",");
  const attrs = { user_id: id, email };
  if (name) attrs.name = name;
  api.authentication.setUserByConnection("Username-Password-Authentication", attrs, { creationBehavior: "create_if_not_exists", updateBehavior: "replace" });
  api.user.setAppMetadata("plan", name ? { tier: name } : null);
  api.user.setUserMetadata("locale", "fr");`, "", "")
	if status, out := x.exchange("u1,u1@example.com,Ada"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if u := x.user("auth0|u1"); u.Name != "Ada" || string(u.AppMetadata) != `{"plan":{"tier":"Ada"}}` || string(u.UserMetadata) != `{"locale":"fr"}` {
		t.Fatalf("created %+v", u)
	}
	if status, out := x.exchange("u1,other@example.com,Ada"); status != 400 || !strings.Contains(out["error_description"].(string), "email cannot be changed") {
		t.Fatalf("email change: %d %v", status, out)
	}
	// A replace without name removes it (the name falls back to the email);
	// a null metadata value removes its key.
	if status, out := x.exchange("u1,u1@example.com"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if u := x.user("auth0|u1"); u.Name != "u1@example.com" || string(u.AppMetadata) != `{}` || string(u.UserMetadata) != `{"locale":"fr"}` {
		t.Fatalf("replaced %+v", u)
	}
}

// The action reads its event: the deployed version's secrets, the
// transaction, the client, the request without the client's secret.
func TestExchange_event(t *testing.T) {
	x := newExchangeTenant(t, Options{TenantName: "acme-dev"}, `
  api.user.setAppMetadata("event", event);
  `+createLegacy, "", `[{"name":"LEGACY_KEY","value":"k1"}]`)
	if status, out := x.exchange("e1", "scope", "openid read:orders", "extra", "kept"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	var meta struct{ Event map[string]map[string]any }
	if err := json.Unmarshal(x.user("auth0|e1").AppMetadata, &meta); err != nil {
		t.Fatal(err)
	}
	e := meta.Event
	body := e["request"]["body"].(map[string]any)
	if e["secrets"]["LEGACY_KEY"] != "k1" || e["transaction"]["subject_token"] != "e1" || e["transaction"]["subject_token_type"] != legacyType ||
		fmt.Sprint(e["transaction"]["requested_scopes"]) != "[openid read:orders]" ||
		e["transaction"]["requested_token_type"] != "urn:ietf:params:oauth:token-type:access_token" ||
		e["client"]["client_id"] != x.client || e["client"]["name"] != "app" || e["resource_server"]["identifier"] != ordersAPI ||
		e["tenant"]["id"] != "acme-dev" || e["request"]["ip"] != "127.0.0.1" || e["request"]["method"] != "POST" ||
		body["extra"] != "kept" || body["client_secret"] != nil || body["subject_token"] != "e1" {
		t.Fatalf("event %v", e)
	}
	// A secret changed without a deploy is not the deployed version's.
	x.expect(x.call(x.tok, "PATCH", actionsPath+"/"+x.actionID, `{"secrets":[{"name":"LEGACY_KEY","value":"k2"}]}`), 200)
	if status, _ := x.exchange("e2"); status != 200 {
		t.Fatal(status)
	}
	_ = json.Unmarshal(x.user("auth0|e2").AppMetadata, &meta)
	if meta.Event["secrets"]["LEGACY_KEY"] != "k1" {
		t.Fatalf("undeployed secret: %v", meta.Event["secrets"])
	}
}

// The deployed version runs: a saved draft does not, a deploy does.
func TestExchange_runsTheDeployedVersion(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `api.access.deny("v1", "version one");`, "", "")
	if _, out := x.exchange("a"); out["error"] != "v1" {
		t.Fatal(out)
	}
	code, _ := json.Marshal(actionCode(`api.access.deny("v2", "version two");`))
	x.expect(x.call(x.tok, "PATCH", actionsPath+"/"+x.actionID, `{"code":`+string(code)+`}`), 200)
	x.poll(x.tok, x.actionID, statusIs(t, "built"))
	if _, out := x.exchange("a"); out["error"] != "v1" {
		t.Fatalf("the draft ran: %v", out)
	}
	x.expect(x.call(x.tok, "POST", actionsPath+"/"+x.actionID+"/deploy", nil), 200)
	if _, out := x.exchange("a"); out["error"] != "v2" {
		t.Fatalf("the new deploy did not run: %v", out)
	}
}

// rejectInvalidSubjectToken counts toward Suspicious IP Throttling: once
// the address's attempts are spent, exchanges get 429 without running the
// action; one attempt comes back each rate.
func TestExchange_suspiciousIPThrottling(t *testing.T) {
	const body = `
  if (event.transaction.subject_token === "forged") { api.access.rejectInvalidSubjectToken("bad token"); return; }
  if (event.transaction.subject_token === "denied") { api.access.deny("invalid_request", "denied"); return; }
  ` + createLegacy
	// An hour's rate: no attempt comes back during the test, however slow.
	x := newExchangeTenant(t, Options{ExchangeThrottle: ExchangeThrottle{MaxAttempts: 3, Rate: time.Hour}}, body, "", "")
	for i := 0; i < 5; i++ { // deny does not count
		if status, _ := x.exchange("denied"); status != 400 {
			t.Fatal(status)
		}
	}
	for i := 0; i < 3; i++ {
		if status, out := x.exchange("forged"); status != 400 || out["error_description"] != "bad token" {
			t.Fatalf("attempt %d: %d %v", i+1, status, out)
		}
	}
	status, out := x.exchange("valid-1")
	if status != 429 || out["error"] != "too_many_attempts" || out["error_description"] != oauth.ThrottledDescription || x.user("auth0|valid-1") != nil {
		t.Fatalf("after 3 rejected tokens: %d %v", status, out)
	}

	// A short rate: once the attempts are spent (429), one comes back a
	// rate later.
	y := newExchangeTenant(t, Options{ExchangeThrottle: ExchangeThrottle{MaxAttempts: 1, Rate: 400 * time.Millisecond}}, body, "", "")
	status = 0
	for i := 0; i < 10 && status != 429; i++ {
		status, _ = y.exchange("forged")
	}
	if status != 429 {
		t.Fatalf("the attempts were never spent: %d", status)
	}
	time.Sleep(450 * time.Millisecond)
	if status, out := y.exchange("valid-1"); status != 200 {
		t.Fatalf("after one rate: %d %v", status, out)
	}
}

// An action that outlives its time limit (the option's, which the log
// names) is stopped, answered 500, and the next exchange runs in a new
// worker. The limit counts from the request's start, the worker's start
// included: long enough here for a loaded machine to start one.
func TestExchange_timeLimit(t *testing.T) {
	log := &emutest.Log{}
	x := newExchangeTenant(t, Options{ActionTimeout: 4 * time.Second, Log: log}, `
  if (event.transaction.subject_token === "slow") { await new Promise(() => setInterval(() => {}, 1000)); }
  `+createLegacy, "", "")
	// The answer and the log say the limit stopped it (how long that took
	// is the machine's business).
	status, out := x.exchange("slow")
	if status != 500 || out["error"] != "server_error" || out["error_description"] != oauth.ActionTimeout {
		t.Fatalf("%d %v", status, out)
	}
	if status, out := x.exchange("fast-1"); status != 200 {
		t.Fatalf("after a timeout: %d %v", status, out)
	}
	if !strings.Contains(log.String(), "did not end within 4s") || !strings.Contains(log.String(), "fecte:") {
		t.Fatalf("log %s", log.String())
	}
}

// What the action prints goes to the emulator's log, and so does the
// detail of a thrown error, which the answer does not give.
func TestExchange_consoleOutputToLog(t *testing.T) {
	log := &emutest.Log{}
	x := newExchangeTenant(t, Options{Log: log}, `
  console.log("checking", event.transaction.subject_token);
  if (event.transaction.subject_token === "throw") { throw new TypeError("the legacy IdP said no"); }
  `+createLegacy, "", "")
	x.exchange("log-1")
	x.exchange("throw")
	waitFor(t, func() bool {
		l := log.String()
		return strings.Contains(l, "checking log-1") && strings.Contains(l, "threw TypeError: the legacy IdP said no") && strings.Contains(l, "secte:")
	}, "the action's output in the log: "+log.String())
}

// The actions cache keeps what an execution stores for the next ones.
func TestExchange_cache(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  const hit = api.cache.get("jwks");
  if (!hit) api.cache.set("jwks", "keys-" + event.transaction.subject_token, { ttl: 60000 });
  api.user.setAppMetadata("cached", hit ? hit.value : null);
  `+createLegacy, "", "")
	x.exchange("c1")
	x.exchange("c2")
	if m := string(x.user("auth0|c2").AppMetadata); m != `{"cached":"keys-c1"}` {
		t.Fatalf("second execution saw %s", m)
	}
}

// The deployed version's npm dependencies are there for its code.
func TestExchange_dependencies(t *testing.T) {
	emutest.RequireNpm(t)
	x := newExchangeTenant(t, Options{}, `
  const leftPad = require("left-pad");
  api.user.setAppMetadata("padded", leftPad(event.transaction.subject_token, 6, "0"));
  `+createLegacy, `[{"name":"left-pad","version":"1.3.0"}]`, "")
	if status, out := x.exchange("42"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if m := string(x.user("auth0|42").AppMetadata); m != `{"padded":"000042"}` {
		t.Fatal(m)
	}
}

// Without Node.js, or without npm, the emulator serves everything else, and
// an exchange says what is missing: never a token.
func TestExchange_withoutNodeOrNpm(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		name string
		o    Options
		deps string
		want string
	}{
		{"no Node.js", Options{Node: missing}, "", "Node.js was not found"},
		{"no npm", Options{Npm: missing, PackageCache: t.TempDir()}, `[{"name":"left-pad","version":"1.3.0"}]`, "npm was not found"},
		{"no npm registry", Options{NpmRegistry: "http://127.0.0.1:1/", PackageCache: t.TempDir()}, `[{"name":"left-pad","version":"1.3.0"}]`, "npm or the npm registry is not available"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newExchangeTenant(t, tc.o, createLegacy, tc.deps, "")
			status, out := x.exchange("n1")
			if status != 500 || out["error"] != "server_error" || !strings.Contains(out["error_description"].(string), tc.want) || out["access_token"] != nil {
				t.Fatalf("%d %v", status, out)
			}
			x.expect(x.call(x.tok, "GET", "/api/v2/token-exchange-profiles", nil), 200)
		})
	}
}

// A profile's action that is gone is 500, and no action runs.
func TestExchange_actionGone(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	x.expect(x.call(x.tok, "DELETE", actionsPath+"/"+x.actionID+"?force=true", nil), 204)
	if status, out := x.exchange("g1"); status != 500 || !strings.Contains(out["error_description"].(string), "does not exist") {
		t.Fatalf("%d %v", status, out)
	}
}

// A public client exchanges with its id alone (§1: public clients may);
// a confidential one cannot leave its secret out.
func TestExchange_publicClient(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	spa, _ := x.newClient(`{"name":"spa","app_type":"spa","is_first_party":true,"oidc_conformant":true,"token_endpoint_auth_method":"none",
		"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`)
	if status, out := x.exchange("p1", "client_id", spa, "client_secret", ""); status != 200 {
		t.Fatalf("public client: %d %v", status, out)
	}
	if status, out := x.exchange("p2", "client_secret", ""); status != 401 || out["error"] != "access_denied" {
		t.Fatalf("confidential client without its secret: %d %v", status, out)
	}
}

// An API's subject_type_authorization decides whether users get its
// tokens (management-api.md §4): deny_all never, require_client_grant with
// a grant of subject type user.
func TestExchange_userAccessPolicy(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI),
		`{"subject_type_authorization":{"user":{"policy":"require_client_grant"},"client":{"policy":"require_client_grant"}}}`), 200)
	if status, out := x.exchange("g1"); status != 403 || out["error"] != "access_denied" || !strings.Contains(out["error_description"].(string), "client-grant") {
		t.Fatalf("without a user grant: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "POST", "/api/v2/client-grants", fmt.Sprintf(`{"client_id":%q,"audience":%q,"scope":["read:orders"],"subject_type":"user"}`, x.client, ordersAPI)), 201)
	if status, out := x.exchange("g1"); status != 200 {
		t.Fatalf("with a user grant: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI),
		`{"subject_type_authorization":{"user":{"policy":"deny_all"},"client":{"policy":"require_client_grant"}}}`), 200)
	if status, out := x.exchange("g1"); status != 403 || !strings.Contains(out["error_description"].(string), "does not allow user access") {
		t.Fatalf("deny_all: %d %v", status, out)
	}
}

// Under RBAC the granted scopes are those the user's roles give (none: the
// users exchanges set are in no role), and an *_authz dialect adds the
// permissions claim; the RFC 9068 profile names the client client_id.
func TestExchange_rbacAndDialects(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI),
		`{"enforce_policies":true,"token_dialect":"rfc9068_profile_authz"}`), 200)
	status, out := x.exchange("r1", "scope", "openid read:orders")
	if status != 200 || out["scope"] != "openid" {
		t.Fatalf("%d %v", status, out)
	}
	at := x.verify(out["access_token"].(string))
	if at["client_id"] != x.client || at["azp"] != nil || at["jti"] == nil || fmt.Sprint(at["permissions"]) != "[]" {
		t.Fatalf("claims %v", at)
	}
}

// A reset gives the throttled address its attempts back.
func TestExchange_resetClearsThrottle(t *testing.T) {
	x := newExchangeTenant(t, Options{ExchangeThrottle: ExchangeThrottle{MaxAttempts: 1}}, `api.access.rejectInvalidSubjectToken("no");`, "", "")
	x.s.t.Lock()
	x.s.start = x.s.t.St.Clone() // the tenant as it is now is the one a reset returns to
	x.s.t.Unlock()
	x.exchange("f")
	if status, _ := x.exchange("f"); status != 429 {
		t.Fatalf("second rejected token: %d", status)
	}
	x.s.Reset()
	if status, out := x.exchange("f"); status != 400 || out["error_description"] != "no" {
		t.Fatalf("after a reset: %d %v", status, out)
	}
}

// An action's code can reach the emulator over HTTP like any local program,
// but the state it can read there holds no secret: not the default
// client's secret, not another client's, not an HS256 API's signing secret.
func TestExchange_actionReadsNoSecretFromTheState(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  const res = await fetch("http://" + event.request.hostname + "/__emulator/state");
  const state = await res.text();
  const secrets = event.request.body.probe.split(" ");
  api.user.setAppMetadata("probe", { status: res.status, clients: JSON.parse(state).clients.length, seen: secrets.filter((s) => state.includes(s)) });
  `+createLegacy, "", "")
	x.expect(x.call(x.tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://hs.example.com/","signing_alg":"HS256","signing_secret":"hs256-signing-secret-of-the-api"}`), 201)
	if st := x.s.State(); !strings.Contains(string(st.Clients[0]), x.s.ClientSecret()) {
		t.Fatal("the Go State does not show the default client's secret")
	}
	probe := strings.Join([]string{x.s.ClientSecret(), x.secret, "hs256-signing-secret-of-the-api"}, " ")
	if status, out := x.exchange("probe-1", "probe", probe); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	var meta struct {
		Probe struct {
			Status, Clients int
			Seen            []string
		}
	}
	if err := json.Unmarshal(x.user("auth0|probe-1").AppMetadata, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Probe.Status != 200 || meta.Probe.Clients < 2 || len(meta.Probe.Seen) != 0 {
		t.Fatalf("the action's view of /__emulator/state: %+v", meta.Probe)
	}
}

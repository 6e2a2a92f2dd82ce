package emulator

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

type harness struct {
	t *testing.T
	s *Server
}

func start(t *testing.T, o Options) *harness {
	t.Helper()
	s, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &harness{t, s}
}

// tokenFor gets an access token with client credentials in a form body.
func (h *harness) tokenFor(id, secret string) string {
	h.t.Helper()
	resp, err := http.PostForm(h.s.Domain()+"/oauth/token", url.Values{
		"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}, "audience": {h.s.Audience()},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	tok, _ := out["access_token"].(string)
	if tok == "" {
		h.t.Fatalf("no token: %d %v", resp.StatusCode, out)
	}
	return tok
}

type reply struct {
	status int
	header http.Header
	body   string
}

func (r reply) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("not a JSON object: %q", r.body)
	}
	return m
}

// call sends method path with a JSON body (string, or any marshalled).
func (h *harness) call(token, method, path string, body any) reply {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		s, ok := body.(string)
		if !ok {
			b, _ := json.Marshal(body)
			s = string(b)
		}
		rd = strings.NewReader(s)
	}
	req, _ := http.NewRequest(method, h.s.Domain()+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

func (h *harness) admin() string { return h.tokenFor(h.s.ClientID(), h.s.ClientSecret()) }

func (h *harness) expect(r reply, status int, contains ...string) {
	h.t.Helper()
	if r.status != status {
		h.t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	for _, c := range contains {
		if !strings.Contains(r.body, c) {
			h.t.Fatalf("body %s lacks %s", r.body, c)
		}
	}
}

// action creates an action; with deploy it waits until the build has
// deployed it.
func (h *harness) action(tok string, triggers string, deploy bool) string {
	h.t.Helper()
	r := h.call(tok, "POST", "/api/v2/actions/actions", fmt.Sprintf(`{"name":"a","supported_triggers":[{"id":%q,"version":"v1"}],"code":"x","deploy":%v}`, triggers, deploy))
	h.expect(r, 201, `"status":"pending"`)
	id := r.json(h.t)["id"].(string)
	if deploy {
		h.poll(tok, id, func(r reply) bool { return strings.Contains(r.body, `"deployed_version"`) })
	}
	return id
}

// poll reads the action until done holds and returns the statuses it saw,
// in order, without repeats. Its minute only ends a test whose build never
// ends, however loaded the machine.
func (h *harness) poll(tok, id string, done func(reply) bool) []string {
	h.t.Helper()
	var seen []string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		r := h.call(tok, "GET", "/api/v2/actions/actions/"+id, nil)
		h.expect(r, 200)
		if st, _ := r.json(h.t)["status"].(string); len(seen) == 0 || seen[len(seen)-1] != st {
			seen = append(seen, st)
		}
		if done(r) {
			return seen
		}
	}
	h.t.Fatalf("action %s: gave up polling after %v", id, seen)
	return nil
}

func TestProfileCreation_errorTable(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	good := h.action(tok, "custom-token-exchange", true)
	undeployed := h.action(tok, "custom-token-exchange", false)
	other := h.action(tok, "post-login", true)
	body := func(name, stt, action, typ string) string {
		return fmt.Sprintf(`{"name":%q,"subject_token_type":%q,"action_id":%q,"type":%q}`, name, stt, action, typ)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"unknown property", `{"name":"abc","subject_token_type":"urn:acme:t","action_id":"x","type":"custom_authentication","extra":1}`, 400, "Additional properties not allowed: extra"},
		{"name 2", body("ab", "urn:acme:token", good, "custom_authentication"), 400, "String is too short (2 chars), minimum 3' on property name"},
		{"name 51", body(strings.Repeat("n", 51), "urn:acme:token", good, "custom_authentication"), 400, "maximum 50' on property name"},
		{"stt 7", body("abc", "urn:a:b", good, "custom_authentication"), 400, "minimum 8' on property subject_token_type"},
		{"stt 101", body("abc", "urn:a:"+strings.Repeat("b", 95), good, "custom_authentication"), 400, "maximum 100' on property subject_token_type"},
		{"stt not a URI", body("abc", "not a uri at all", good, "custom_authentication"), 400, "format uri"},
		{"stt reserved", body("abc", "urn:ietf:params:x", good, "custom_authentication"), 400, "reserved prefix"},
		{"action empty", body("abc", "urn:acme:token", "", "custom_authentication"), 400, "minimum 1' on property action_id"},
		{"action 37", body("abc", "urn:acme:token", strings.Repeat("a", 37), "custom_authentication"), 400, "maximum 36' on property action_id"},
		{"type custom", body("abc", "urn:acme:token", good, "custom"), 400, "Type field must be custom"},
		{"type 22", body("abc", "urn:acme:token", good, strings.Repeat("t", 22)), 400, "maximum 21' on property type"},
		{"missing name", `{"subject_token_type":"urn:acme:t1","action_id":"x","type":"custom_authentication"}`, 400, "Missing required property: name"},
		{"action missing", body("abc", "urn:acme:token", "00000000-0000-4000-8000-000000000000", "custom_authentication"), 400, "does not exist"},
		{"action undeployed", body("abc", "urn:acme:token", undeployed, "custom_authentication"), 400, "has not been deployed"},
		{"action other trigger", body("abc", "urn:acme:token", other, "custom_authentication"), 400, "does not support the custom-token-exchange trigger"},
		{"created", body("abc", "urn:acme:token", good, "custom_authentication"), 201, `"type":"custom_authentication"`},
		{"duplicate", body("abd", "urn:acme:token", good, "custom_authentication"), 409, "subject_token_type already exists for tenant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.expect(h.call(tok, "POST", "/api/v2/token-exchange-profiles", tc.body), tc.status, tc.want)
		})
	}

	t.Run("form body", func(t *testing.T) {
		form := url.Values{"name": {"formed"}, "subject_token_type": {"urn:acme:form"}, "action_id": {good}, "type": {"custom_authentication"}}
		req, _ := http.NewRequest("POST", h.s.BaseURL()+"/token-exchange-profiles", strings.NewReader(form.Encode()))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 201 {
			t.Fatalf("%v %v", err, resp.Status)
		}
	})
	t.Run("entity cap", func(t *testing.T) {
		h.s.SetEntityCap(2)
		defer h.s.SetEntityCap(0)
		h.expect(h.call(tok, "POST", "/api/v2/token-exchange-profiles", body("abc", "urn:acme:capped", good, "custom_authentication")),
			403, "You reached the limit of entities of this type for this tenant.")
	})
	t.Run("non-global client", func(t *testing.T) {
		h.s.AddClient(Client{ID: "local", Secret: "local-secret", Scopes: tenant.AllScopes()})
		h.expect(h.call(h.tokenFor("local", "local-secret"), "POST", "/api/v2/token-exchange-profiles", body("abc", "urn:acme:local", good, "custom_authentication")), 401, "global client")
	})
	t.Run("missing scope", func(t *testing.T) {
		h.s.AddClient(Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:token_exchange_profiles"}, Global: true})
		r := h.call(h.tokenFor("reader", "reader-secret"), "POST", "/api/v2/token-exchange-profiles", body("abc", "urn:acme:reader", good, "custom_authentication"))
		h.expect(r, 403, "Insufficient scope, expected any of: create:token_exchange_profiles", `"errorCode":"insufficient_scope"`)
	})
}

func TestProfiles_lifecycleAndList(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	act := h.action(tok, "custom-token-exchange", true)
	var ids []string
	for i := range 5 {
		r := h.call(tok, "POST", "/api/v2/token-exchange-profiles", fmt.Sprintf(`{"name":"p%02d","subject_token_type":"urn:acme:%02d","action_id":%q,"type":"custom_authentication"}`, i, i, act))
		h.expect(r, 201)
		m := r.json(t)
		if m["created_at"] != m["updated_at"] || !strings.HasPrefix(m["id"].(string), "tep_") {
			t.Fatalf("bad profile %v", m)
		}
		ids = append(ids, m["id"].(string))
	}
	// take/from walk: 2 + 2 + 1, next omitted on the last page.
	var seen []string
	from := ""
	for pages := 0; ; pages++ {
		r := h.call(tok, "GET", "/api/v2/token-exchange-profiles?take=2&from="+url.QueryEscape(from), nil)
		h.expect(r, 200)
		m := r.json(t)
		for _, p := range m["token_exchange_profiles"].([]any) {
			seen = append(seen, p.(map[string]any)["id"].(string))
		}
		next, ok := m["next"].(string)
		if !ok {
			break
		}
		from = next
	}
	if strings.Join(seen, ",") != strings.Join(ids, ",") {
		t.Fatalf("walk %v, want %v", seen, ids)
	}
	h.expect(h.call(tok, "PATCH", "/api/v2/token-exchange-profiles/"+ids[0], `{"name":"renamed"}`), 200, `"name":"renamed"`)
	h.expect(h.call(tok, "PATCH", "/api/v2/token-exchange-profiles/"+ids[0], `{"action_id":"x"}`), 400, "Additional properties not allowed: action_id")
	h.expect(h.call(tok, "PATCH", "/api/v2/token-exchange-profiles/"+ids[0], `{"subject_token_type":"urn:acme:01"}`), 400, "already exists")
	h.expect(h.call(tok, "DELETE", "/api/v2/token-exchange-profiles/"+ids[0], nil), 204)
	h.expect(h.call(tok, "DELETE", "/api/v2/token-exchange-profiles/"+ids[0], nil), 204)
	h.expect(h.call(tok, "GET", "/api/v2/token-exchange-profiles/"+ids[0], nil), 404, "Token exchange profile not found.")
}

func TestAuth_failures(t *testing.T) {
	h := start(t, Options{})
	good := h.admin()
	parts := strings.Split(good, ".")
	tenantKey, kid := h.s.oauth.Key()
	// Tenants of one process sign with one key (oauth.processKey): each
	// still refuses the other's tokens, by their issuer.
	other := start(t, Options{}).admin()
	sign := func(method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
		tk := jwt.NewWithClaims(method, claims)
		tk.Header["kid"] = kid
		s, err := tk.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	claims := func(mod func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"iss": "https://" + h.s.t.Host + "/", "sub": h.s.ClientID() + "@clients", "aud": h.s.Audience(),
			"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(), "scope": strings.Join(tenant.AllScopes(), " "), "azp": h.s.ClientID()}
		if mod != nil {
			mod(c)
		}
		return c
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(bytes.Replace(payload, []byte("@clients"), []byte("@client5"), 1)) + "." + parts[2]
	noneTok := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
	pubDER := tenantKey.PublicKey.N.Bytes()
	for _, tc := range []struct {
		name, token string
		status      int
		want        string
	}{
		{"missing", "", 401, "Missing authentication"},
		{"garbled", "garbage", 401, "Invalid token"},
		{"tampered", tampered, 401, "Invalid token signature"},
		{"alg none", noneTok, 401, "Invalid token signature"},
		{"hs256 with public key", sign(jwt.SigningMethodHS256, pubDER, claims(nil)), 401, "Invalid token signature"},
		{"expired", sign(jwt.SigningMethodRS256, tenantKey, claims(func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Minute).Unix() })), 401, "Expired token received for JSON Web Token validation"},
		{"another tenant's", other, 401, "Invalid token issuer"},
		{"wrong audience", sign(jwt.SigningMethodRS256, tenantKey, claims(func(c jwt.MapClaims) { c["aud"] = "https://elsewhere/api/v2/" })), 401, "Bad audience"},
		{"scope missing", sign(jwt.SigningMethodRS256, tenantKey, claims(func(c jwt.MapClaims) { c["scope"] = "read:actions" })), 403, "Insufficient scope, expected any of: read:roles"},
		{"ok", good, 200, "["},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.expect(h.call(tc.token, "GET", "/api/v2/roles", nil), tc.status, tc.want)
		})
	}
}

func TestToken_endpoint(t *testing.T) {
	h := start(t, Options{ClientID: "cid", ClientSecret: "csecret"})
	post := func(ctype, body string, basic bool) reply {
		req, _ := http.NewRequest("POST", h.s.Domain()+"/oauth/token", strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		if basic {
			req.SetBasicAuth("cid", "csecret")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return reply{resp.StatusCode, resp.Header, string(b)}
	}
	aud := h.s.Audience()
	h.expect(post("application/json", fmt.Sprintf(`{"grant_type":"client_credentials","client_id":"cid","client_secret":"csecret","audience":%q}`, aud), false), 200, `"token_type":"Bearer"`, `"expires_in":86400`, `"scope":"read:token_exchange_profiles`)
	h.expect(post("application/x-www-form-urlencoded", "grant_type=client_credentials&audience="+url.QueryEscape(aud), true), 200, "access_token")
	h.expect(post("application/x-www-form-urlencoded", "grant_type=client_credentials&client_id=cid&client_secret=wrong&audience="+url.QueryEscape(aud), false), 401, `"error":"access_denied"`, "error_description")
	h.expect(post("application/x-www-form-urlencoded", "grant_type=client_credentials&client_id=nobody&client_secret=x&audience="+url.QueryEscape(aud), false), 401, "access_denied")
	h.expect(post("application/x-www-form-urlencoded", "grant_type=client_credentials&client_id=cid&client_secret=csecret&audience=https://other/", false), 403, "Service not found")

	r := h.call("", "GET", "/.well-known/jwks.json", nil)
	_, kid := h.s.oauth.Key()
	h.expect(r, 200, `"kty":"RSA"`, `"kid":"`+kid+`"`)
	// The issued token's claims.
	tok := h.admin()
	payload, _ := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
	var c map[string]any
	_ = json.Unmarshal(payload, &c)
	if c["iss"] != "https://"+h.s.t.Host+"/" || c["sub"] != "cid@clients" || c["aud"] != aud || c["gty"] != "client-credentials" || c["azp"] != "cid" {
		t.Fatalf("claims %v", c)
	}
	header, _ := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[0])
	if !strings.Contains(string(header), `"alg":"RS256"`) || !strings.Contains(string(header), `"kid"`) {
		t.Fatalf("header %s", header)
	}
}

func TestRoles_paginationAndIrregularCodes(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/roles", `{"name":"reader"}`)
	h.expect(r, 200)
	if strings.Contains(r.body, "description") {
		t.Fatalf("create answer has a description: %s", r.body)
	}
	id := r.json(t)["id"].(string)
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id, nil), 200, `"description":""`)
	for i := range 4 {
		h.expect(h.call(tok, "POST", "/api/v2/roles", fmt.Sprintf(`{"name":"other-%d"}`, i)), 200)
	}
	r = h.call(tok, "GET", "/api/v2/roles?include_totals=true&page=1&per_page=2", nil)
	h.expect(r, 200)
	if !strings.HasPrefix(r.body, `{"roles":[`) || !strings.Contains(r.body, `"start":2,"limit":2,"total":5}`) || strings.Contains(r.body, "length") {
		t.Fatalf("envelope %s", r.body)
	}
	h.expect(h.call(tok, "GET", "/api/v2/roles?include_totals=true&page=9&per_page=50", nil), 200, `{"roles":[],"start":450,"limit":50,"total":5}`)
	h.expect(h.call(tok, "GET", "/api/v2/roles?name_filter=READ", nil), 200, `"name":"reader"`)
	h.expect(h.call(tok, "GET", "/api/v2/roles?per_page=101", nil), 400, "Query validation error")

	// Permissions: API with scopes, then add (201 {}), read (sorted, denormalised), remove (204).
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/x","name":"X","scopes":[{"value":"read:foo","description":"Read foo"},{"value":"create:foo"}]}`), 201)
	perm := func(names ...string) string {
		var items []string
		for _, n := range names {
			items = append(items, fmt.Sprintf(`{"resource_server_identifier":"https://api.example.com/x","permission_name":%q}`, n))
		}
		return `{"permissions":[` + strings.Join(items, ",") + `]}`
	}
	r = h.call(tok, "POST", "/api/v2/roles/"+id+"/permissions", perm("read:foo", "create:foo"))
	h.expect(r, 201)
	if r.body != "{}\n" {
		t.Fatalf("body %q", r.body)
	}
	h.expect(h.call(tok, "POST", "/api/v2/roles/"+id+"/permissions", perm("read:foo")), 201) // idempotent
	r = h.call(tok, "GET", "/api/v2/roles/"+id+"/permissions?include_totals=true&per_page=100", nil)
	h.expect(r, 200, `{"permissions":[{"permission_name":"create:foo","description":"","resource_server_name":"X","resource_server_identifier":"https://api.example.com/x"},{"permission_name":"read:foo","description":"Read foo"`, `"start":0,"limit":100,"total":2}`)
	h.expect(h.call(tok, "POST", "/api/v2/roles/"+id+"/permissions", perm("delete:foo")), 400, "delete:foo")
	h.expect(h.call(tok, "POST", "/api/v2/roles/"+id+"/permissions", `{"permissions":[{"resource_server_identifier":"https://nope","permission_name":"a"}]}`), 404, "The resource server does not exist: 'https://nope'")
	h.expect(h.call(tok, "POST", "/api/v2/roles/"+id+"/permissions", `{"permissions":[]}`), 400, "minimum 1")
	h.expect(h.call(tok, "DELETE", "/api/v2/roles/"+id+"/permissions", perm("read:foo", "never:assigned")), 204)
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id+"/permissions", nil), 200, `[{"permission_name":"create:foo"`)
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id+"/users", nil), 200, `[]`)
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id+"/users?take=50", nil), 200, `{"users":[]}`)

	r = h.call(tok, "DELETE", "/api/v2/roles/"+id, `{}`)
	h.expect(r, 200)
	if r.body != "{}\n" {
		t.Fatalf("role DELETE body %q", r.body)
	}
	h.expect(h.call(tok, "DELETE", "/api/v2/roles/"+id, `{}`), 404, "The role does not exist.")
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id+"/permissions", nil), 404, "The role does not exist.")
}

func TestResourceServers(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	ident := "https://api.example.com/orders/"
	r := h.call(tok, "POST", "/api/v2/resource-servers", map[string]any{"identifier": ident, "signing_alg": "HS256"})
	h.expect(r, 201, `"token_lifetime":86400`, `"token_lifetime_for_web":7200`, `"allow_offline_access":false`)
	m := r.json(t)
	id := m["id"].(string)
	if len(id) != 24 || m["name"] != nil || m["is_system"] != nil || len(m["signing_secret"].(string)) != 32 {
		t.Fatalf("create answer %s", r.body)
	}
	esc := strings.ReplaceAll(url.PathEscape(ident), "/", "%2F")
	h.expect(h.call(tok, "GET", "/api/v2/resource-servers/"+esc, nil), 200, `"id":"`+id)
	h.expect(h.call(tok, "GET", "/api/v2/resource-servers/"+strings.ReplaceAll(esc, "%", "%25"), nil), 200, `"id":"`+id)
	h.expect(h.call(tok, "GET", "/api/v2/resource-servers/000000000000000000000000", nil), 404, "The resource server does not exist", "inexistent_resource_server")
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", map[string]any{"identifier": ident}), 409)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"identifier":"x"}`), 400, "Additional properties not allowed: identifier")
	r = h.call(tok, "PATCH", "/api/v2/resource-servers/"+esc, `{"name":"Orders","scopes":[{"value":"read:orders"}],"token_dialect":"access_token_authz","enforce_policies":true}`)
	h.expect(r, 200, `"name":"Orders"`, `"scopes":[{"value":"read:orders"}]`, `"token_dialect":"access_token_authz"`)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"scopes":[]}`), 200, `"scopes":[]`)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"token_lifetime":100,"token_lifetime_for_web":200}`), 400, "token_lifetime_for_web")
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"token_lifetime":100}`), 400, "token_lifetime_for_web")
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://short","token_lifetime":3600}`), 201, `"token_lifetime":3600,"token_lifetime_for_web":3600`)
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://short2","token_lifetime":3600,"token_lifetime_for_web":4000}`), 400, "token_lifetime_for_web")
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+id, `{"signing_alg":"XX"}`), 400, "No enum match")
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", map[string]any{"identifier": "https://b", "unknown": 1}), 400, "Additional properties not allowed: unknown")

	// The system API.
	sysEsc := strings.ReplaceAll(url.PathEscape(h.s.Audience()), "/", "%2F")
	r = h.call(tok, "GET", "/api/v2/resource-servers/"+sysEsc, nil)
	h.expect(r, 200, `"is_system":true`)
	sysID := r.json(t)["id"].(string)
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+sysID, `{"name":"x"}`), 400, "Additional properties not allowed: name")
	h.expect(h.call(tok, "PATCH", "/api/v2/resource-servers/"+sysID, `{"token_lifetime":3600,"token_lifetime_for_web":600}`), 400, "token_lifetime_for_web")
	h.expect(h.call(tok, "DELETE", "/api/v2/resource-servers/"+sysID, nil), 400, "cannot be deleted")

	// List envelope: total, start, limit, resource_servers; no length.
	r = h.call(tok, "GET", "/api/v2/resource-servers?include_totals=true&page=0&per_page=1", nil)
	if !strings.HasPrefix(r.body, `{"total":3,"start":0,"limit":1,"resource_servers":[`) || strings.Contains(r.body, "length") {
		t.Fatalf("envelope %s", r.body)
	}
	h.expect(h.call(tok, "DELETE", "/api/v2/resource-servers/"+id, nil), 204)
	h.expect(h.call(tok, "DELETE", "/api/v2/resource-servers/"+id, nil), 204)
}

func TestActions_buildAndDeploy(t *testing.T) {
	h := start(t, Options{BuildDelay: 50 * time.Millisecond})
	tok := h.admin()
	id := h.action(tok, "custom-token-exchange", false)
	h.poll(tok, id, func(r reply) bool { return r.json(t)["status"] == "built" })
	h.expect(h.call(tok, "GET", "/api/v2/actions/actions/"+id, nil), 200, `"status":"built"`, `"all_changes_deployed":false`)
	h.expect(h.call(tok, "POST", "/api/v2/actions/actions/"+id+"/deploy", nil), 200, `"deployed":false`, `"number":1`)
	h.expect(h.call(tok, "GET", "/api/v2/actions/actions/"+id, nil), 200, `"deployed":true`, `"all_changes_deployed":true`)
	h.expect(h.call(tok, "GET", "/api/v2/actions/actions?triggerId=custom-token-exchange&deployed=true", nil), 200, `"total":1`, `"per_page":20`)
	h.expect(h.call(tok, "GET", "/api/v2/actions/triggers/custom-token-exchange/bindings?page=0&per_page=100", nil), 200, `{"bindings":[],"per_page":100}`)
	h.expect(h.call(tok, "DELETE", "/api/v2/actions/actions/"+id, nil), 204)
	h.expect(h.call(tok, "DELETE", "/api/v2/actions/actions/"+id, nil), 404, "That action does not exist.")
}

func TestPhoneProviders_tryAndOutbox(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	h.expect(h.call(tok, "GET", "/api/v2/branding/phone/providers", nil), 200, `{"providers":[]}`)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers", `{"name":"twilio","configuration":{"sid":"AC1","delivery_methods":["text"]},"credentials":{"auth_token":"x"}}`), 400, "Bad Operation on Notification Resource")
	r := h.call(tok, "POST", "/api/v2/branding/phone/providers", `{"name":"twilio","configuration":{"sid":"AC1","default_from":"+15550000","delivery_methods":["text","voice"]},"credentials":{"auth_token":"tok-secret"}}`)
	h.expect(r, 201, `"channel":"phone"`, `"tenant":"emulated-tenant"`)
	if strings.Contains(r.body, "tok-secret") || strings.Contains(r.body, "credentials") {
		t.Fatalf("credentials returned: %s", r.body)
	}
	id := r.json(t)["id"].(string)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers", `{"name":"custom","configuration":{"delivery_methods":["text"]},"credentials":{}}`), 409)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers/"+id+"/try", `{"to":"+15551234567","delivery_method":"voice"}`), 202,
		`{"code":202,"message":"Test notification successfully sent for processing"}`)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers/"+strings.Repeat("p", 256)+"/try", `{"to":"+1"}`), 400, `{"statusCode":400,"error":"Bad Request","message":"Path validation error:`, "maximum 255")
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers/"+id+"/try", `{}`), 400, `{"statusCode":400,"error":"Bad Request","message":"Payload validation error: 'Missing required property: to'.","errorCode":"invalid_body"}`)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers/"+id+"/try", `{"to":"+12345678901234567"}`), 400, `"statusCode":400`, "maximum 16")
	out := h.s.Outbox()
	if len(out) != 1 || out[0].To != "+15551234567" || out[0].DeliveryMethod != "voice" || out[0].ProviderID != id {
		t.Fatalf("outbox %+v", out)
	}
	h.expect(h.call("", "GET", "/__emulator/outbox", nil), 200, `"to":"+15551234567"`)
	h.expect(h.call(tok, "DELETE", "/api/v2/branding/phone/providers/"+id, nil), 204)

	// Every phone-provider error has the API's one error shape, without
	// errorCode; {code, message} is the try answer's success shape only.
	notFound := `{"statusCode":404,"error":"Not Found","message":"Notification Resource not found"}` + "\n"
	const phone = "/api/v2/branding/phone/providers/"
	for _, c := range []struct{ method, path, body string }{
		{"GET", phone + id, ""},
		{"PATCH", phone + id, `{"disabled":true}`},
		{"DELETE", phone + id, ""},
		{"POST", phone + id + "/try", `{"to":"+1"}`},
		{"POST", phone + "pro_nope/try", `{"to":"+1"}`},
	} {
		var b any
		if c.body != "" {
			b = c.body
		}
		if r := h.call(tok, c.method, c.path, b); r.status != 404 || r.body != notFound {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.status, r.body)
		}
	}
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers", `{"name":"custom","configuration":{"delivery_methods":["text"]}}`), 400,
		`{"statusCode":400,"error":"Bad Request","message":"Bad Operation on Notification Resource"}`)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers", `{"name":"x","configuration":{"delivery_methods":["text"]},"credentials":{}}`), 400,
		`"statusCode":400`, `No enum match for: \"x\"' on property name.`)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers", `{"name":"custom","configuration":{"delivery_methods":["text"]},"credentials":{}}`), 201)
	h.expect(h.call(tok, "POST", "/api/v2/branding/phone/providers", `{"name":"custom","configuration":{"delivery_methods":["text"]},"credentials":{}}`), 409,
		`{"statusCode":409,"error":"Conflict","message":"Custom phone provider conflict"}`)
	r = h.call(tok, "GET", "/api/v2/branding/phone/providers", nil)
	h.expect(r, 200)
	listed := r.json(t)["providers"].([]any)[0].(map[string]any)["id"].(string)
	h.expect(h.call(tok, "PATCH", phone+listed, `{"name":"sms"}`), 400, `"statusCode":400`, "on property name.")
	h.expect(h.call(tok, "GET", phone+strings.Repeat("p", 256), nil), 400, `"statusCode":400`, `"errorCode":"invalid_uri"`)
}

func TestRateLimit(t *testing.T) {
	h := start(t, Options{RateLimitRPS: 1, RateLimitBurst: 3})
	tok := h.admin() // takes one token from the bucket
	// The bucket refills a token a second, so however slowly the calls
	// come, a few more than the burst find it empty.
	var last reply
	var before, after time.Time
	for i := 0; i < 10 && last.status != 429; i++ {
		before = time.Now()
		last = h.call(tok, "GET", "/api/v2/roles", nil)
		after = time.Now()
		if last.header.Get("X-RateLimit-Limit") != "3" || last.header.Get("X-RateLimit-Remaining") == "" {
			t.Fatalf("headers %v", last.header)
		}
	}
	h.expect(last, 429, `"message":"Global limit has been reached"`, `"errorCode":"too_many_requests"`)
	reset, _ := strconv.ParseInt(last.header.Get("X-RateLimit-Reset"), 10, 64)
	if reset < before.Unix() || reset > after.Add(5*time.Second).Unix() {
		t.Fatalf("reset %d is not epoch seconds in the near future of %d", reset, before.Unix())
	}
	if last.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("remaining %s", last.header.Get("X-RateLimit-Remaining"))
	}
}

func TestFaults(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	h.expect(h.call("", "PUT", "/__emulator/faults", `{"error_rate":1,"seed":7}`), 200)
	r := h.call(tok, "GET", "/api/v2/roles", nil)
	if r.status < 500 {
		t.Fatalf("error_rate 1 answered %d", r.status)
	}
	h.expect(h.call("", "PUT", "/__emulator/faults", `{"drop_rate":1,"seed":7}`), 200)
	req, _ := http.NewRequest("POST", h.s.BaseURL()+"/roles", strings.NewReader(`{"name":"dropped"}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a dropped write was answered %d", resp.StatusCode)
	}
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 200, `"name":"dropped"`) // applied; GETs are never dropped
	h.expect(h.call("", "PUT", "/__emulator/faults", `{"latency_ms":150}`), 200)
	begin := time.Now()
	h.call(tok, "GET", "/api/v2/roles", nil)
	if time.Since(begin) < 150*time.Millisecond {
		t.Fatal("latency not applied")
	}
	h.expect(h.call("", "PUT", "/__emulator/faults", `{"error_rate":2}`), 400)
	h.expect(h.call("", "PUT", "/__emulator/faults", `{"routes":{"DELETE /api/v2/roles/{id}":409}}`), 200)
	h.expect(h.call(tok, "DELETE", "/api/v2/roles/rol_x", `{}`), 409, "Injected fault for DELETE /api/v2/roles/{id}")
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 200)
	h.s.SetFaults(Faults{})

	// Same seed, same sequence of faults.
	pattern := func() string {
		h.s.SetFaults(Faults{ErrorRate: 0.5, Seed: 42})
		var b strings.Builder
		for range 20 {
			b.WriteString(strconv.Itoa(h.call(tok, "GET", "/api/v2/roles", nil).status / 100))
		}
		h.s.SetFaults(Faults{})
		return b.String()
	}
	if a, b := pattern(), pattern(); a != b || !strings.Contains(a, "2") || !strings.Contains(a, "5") {
		t.Fatalf("faults not reproducible: %s vs %s", a, b)
	}
}

func TestAdmin(t *testing.T) {
	h := start(t, Options{Demo: true})
	tok := h.admin()
	h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"extra"}`), 200)
	r := h.call("", "GET", "/__emulator/stats", nil)
	h.expect(r, 200, `"requests_total":2`, `"POST /oauth/token":1`, `"POST /api/v2/roles":1`, `"200":2`)
	h.expect(h.call("", "GET", "/__emulator/state", nil), 200, `"name":"extra"`, `"name":"demo-role"`, `"is_system":true`, `"token_exchange_profiles":[]`)
	h.expect(h.call("", "POST", "/__emulator/stats/reset", nil), 204)
	h.expect(h.call("", "GET", "/__emulator/stats", nil), 200, `"requests_total":0`)
	h.expect(h.call("", "POST", "/__emulator/reset", nil), 204)
	r = h.call("", "GET", "/__emulator/state", nil)
	if strings.Contains(r.body, `"name":"extra"`) || !strings.Contains(r.body, h.s.Demo().RoleID) || !strings.Contains(r.body, h.s.Demo().ActionID) {
		t.Fatalf("reset did not return to the start: %s", r.body)
	}
}

func TestStart_loopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "10.1.2.3:0", ":0", "example.com:80"} {
		if s, err := Start(Options{Listen: addr}); err == nil {
			s.Close()
			t.Errorf("%s accepted", addr)
		}
	}
}

func TestTLS(t *testing.T) {
	h := start(t, Options{TLS: true})
	if !strings.HasPrefix(h.s.Domain(), "https://127.0.0.1:") || h.s.CAFile() == "" {
		t.Fatalf("domain %s ca %s", h.s.Domain(), h.s.CAFile())
	}
	if _, err := http.Get(h.s.Domain() + "/.well-known/jwks.json"); err == nil {
		t.Fatal("an untrusted self-signed certificate was accepted")
	}
	pemBytes, err := os.ReadFile(h.s.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pemBytes)
	for _, host := range []string{"127.0.0.1", "localhost"} {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
		u := strings.Replace(h.s.Domain(), "127.0.0.1", host, 1) + "/.well-known/jwks.json"
		resp, err := c.Get(u)
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		resp.Body.Close()
	}
}

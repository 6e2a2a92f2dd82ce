package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// tokenReply asks the token endpoint for a client credentials token.
func (h *harness) tokenReply(form url.Values) (int, map[string]any) {
	h.t.Helper()
	form.Set("grant_type", "client_credentials")
	resp, err := http.PostForm(h.s.Domain()+"/oauth/token", form)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// client creates a client from body and returns its answer.
func (h *harness) client(tok, body string) map[string]any {
	h.t.Helper()
	r := h.call(tok, "POST", "/api/v2/clients", body)
	h.expect(r, 201)
	return r.json(h.t)
}

func TestClients_createShapeAndDefaults(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/clients", `{"name":"web","description":"d"}`)
	// The recorded create answer's keys, in its order, with its defaults.
	h.expect(r, 201, `{"name":"web","description":"d","client_id":"`,
		`"is_first_party":true,"is_token_endpoint_ip_header_trusted":false,"oidc_conformant":false,"jwt_configuration":{"secret_encoded":false,"lifetime_in_seconds":36000},"signing_keys":[{"cert":"-----BEGIN CERTIFICATE-----`,
		`"sso_disabled":false,"cross_origin_authentication":false,"grant_types":["authorization_code","implicit","refresh_token","client_credentials"],"custom_login_page_on":true,"refresh_token":{"rotation_type":"non-rotating","expiration_type":"non-expiring","leeway":0,"token_lifetime":2592000,"infinite_token_lifetime":true,"infinite_idle_token_lifetime":true,"idle_token_lifetime":1296000}}`)
	c := r.json(t)
	id, secret := c["client_id"].(string), c["client_secret"].(string)
	if len(id) != 32 || len(secret) != 64 {
		t.Fatalf("client_id %q, client_secret of %d characters", id, len(secret))
	}
	for _, k := range []string{"token_exchange", "app_type", "callbacks", "null"} {
		if strings.Contains(r.body, k) {
			t.Fatalf("a bare create shows %s: %s", k, r.body)
		}
	}

	// A refresh token that expires is not infinite, and the rest is the default [O].
	r = h.call(tok, "POST", "/api/v2/clients", `{"name":"m","refresh_token":{"rotation_type":"non-rotating","expiration_type":"expiring","policies":[{"audience":"https://a","scope":["x"]}]}}`)
	h.expect(r, 201, `"refresh_token":{"rotation_type":"non-rotating","expiration_type":"expiring","leeway":0,"token_lifetime":2592000,"infinite_token_lifetime":false,"infinite_idle_token_lifetime":false,"idle_token_lifetime":1296000,"policies":[{"audience":"https://a","scope":["x"]}]}`)
	// A sent jwt_configuration is kept with secret_encoded added [O].
	r = h.call(tok, "POST", "/api/v2/clients", `{"name":"j","jwt_configuration":{"alg":"RS256"}}`)
	h.expect(r, 201, `"jwt_configuration":{"secret_encoded":false,"alg":"RS256"}`)
	// oidc_logout is mirrored into oidc_backchannel_logout [O].
	r = h.call(tok, "POST", "/api/v2/clients", `{"name":"o","oidc_logout":{"backchannel_logout_urls":["https://e/logout"],"backchannel_logout_initiators":{"mode":"custom","selected_initiators":["rp-logout"]},"backchannel_logout_session_metadata":{"include":true}}}`)
	h.expect(r, 201, `"oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/logout"]},"oidc_logout":{"backchannel_logout_urls":["https://e/logout"],"backchannel_logout_initiators":{"mode":"custom","selected_initiators":["rp-logout"]},"backchannel_logout_session_metadata":{"include":true}}`)
	// The token exchange setting the issue is about, echoed [O].
	r = h.call(tok, "POST", "/api/v2/clients", `{"name":"x","oidc_conformant":true,"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`)
	h.expect(r, 201, `"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}`)
	// A client linked to an API: the recorded defaults of that app type.
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://linked"}`), 201)
	r = h.call(tok, "POST", "/api/v2/clients", `{"name":"rs","app_type":"resource_server","resource_server_identifier":"https://linked"}`)
	h.expect(r, 201, `"app_type":"resource_server","is_first_party":true,"is_token_endpoint_ip_header_trusted":false,"oidc_conformant":true,"jwt_configuration":{"secret_encoded":false,"alg":"RS256"}`, `"grant_types":[]`, `"resource_server_identifier":"https://linked"`)
	linked := r.json(t)["client_id"].(string)
	h.expect(h.call(tok, "GET", "/api/v2/resource-servers/https:%2F%2Flinked", nil), 200, `"client_id":"`+linked+`"`)
}

func TestClients_badInput(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	for body, want := range map[string]string{
		`{}`:          `Missing required property: name`,
		`{"name":""}`: `String is too short (0 chars), minimum 1' on property name.`,
		`{"name":"a","description":"` + strings.Repeat("d", 141) + `"}`:              `maximum 140' on property description.`,
		`{"name":"a","app_type":"desktop"}`:                                          `No enum match for: \"desktop\"' on property app_type.`,
		`{"name":"a","client_id":"mine"}`:                                            `Additional properties not allowed: client_id`,
		`{"name":"a","client_secret":"s"}`:                                           `Additional properties not allowed: client_secret`,
		`{"name":"a","token_exchange":{"allow_any_profile_of_type":["x"]}}`:          `No enum match for: \"x\"' on property token_exchange.allow_any_profile_of_type[0].`,
		`{"name":"a","refresh_token":{"rotation_type":"sometimes"}}`:                 `on property refresh_token.rotation_type.`,
		`{"name":"a","jwt_configuration":{"alg":"ES256"}}`:                           `on property jwt_configuration.alg.`,
		`{"name":"a","token_endpoint_auth_method":"private_key_jwt"}`:                `on property token_endpoint_auth_method.`,
		`{"name":"a","is_first_party":null}`:                                         `Expected type boolean but found type null' on property is_first_party.`,
		`{"name":"a","organization_discovery_methods":["email"]}`:                    `requires organization_require_behavior pre_login_prompt`,
		`{"name":"a","client_metadata":{"k":"` + strings.Repeat("v", 256) + `"}}`:    `on property client_metadata.k.`,
		`{"name":"a","callbacks":["https://a","https://a"]}`:                         `Array items are not unique' on property callbacks.`,
		`{"name":"a","app_type":"resource_server","resource_server_identifier":"x"}`: `The resource server does not exist`,
	} {
		r := h.call(tok, "POST", "/api/v2/clients", body)
		if r.status != 400 && r.status != 404 || !strings.Contains(r.body, want) {
			t.Errorf("%s: %d %s, want %s", body, r.status, r.body, want)
		}
	}
	if n := len(h.s.State().Clients); n != 1 {
		t.Fatalf("%d clients after refused creates, want the default one", n)
	}
}

func TestClients_readsUpdatesDeletes(t *testing.T) {
	h := start(t, Options{})
	admin := h.admin()
	c := h.client(admin, `{"name":"app","callbacks":["https://a/cb"],"client_metadata":{"a":"1","b":"2"},"jwt_configuration":{"alg":"RS256","lifetime_in_seconds":600},"native_social_login":{"apple":{"enabled":true}}}`)
	id, secret := c["client_id"].(string), c["client_secret"].(string)
	h.expect(h.call(admin, "GET", "/api/v2/clients/"+id, nil), 200, `"client_secret":"`+secret+`"`,
		`"native_social_login":{"apple":{"enabled":true},"facebook":{"enabled":false},"google":{"enabled":false}}`)

	// Without read:client_keys a read succeeds and leaves the secret out;
	// with it alone, the read shows it; with neither, 403.
	h.s.AddClient(Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:clients"}})
	h.s.AddClient(Client{ID: "keys", Secret: "keys-secret", Scopes: []string{"read:client_keys"}})
	h.s.AddClient(Client{ID: "none", Secret: "none-secret", Scopes: []string{"read:roles"}})
	r := h.call(h.tokenFor("reader", "reader-secret"), "GET", "/api/v2/clients/"+id, nil)
	h.expect(r, 200, `"client_id":"`+id+`"`)
	if strings.Contains(r.body, "client_secret") {
		t.Fatalf("read:clients alone shows the secret: %s", r.body)
	}
	r = h.call(h.tokenFor("reader", "reader-secret"), "GET", "/api/v2/clients?include_totals=true", nil)
	h.expect(r, 200, `"total":5,"start":0,"limit":50,"clients":[`)
	if strings.Contains(r.body, "client_secret") {
		t.Fatalf("a list without read:client_keys shows secrets: %s", r.body)
	}
	h.expect(h.call(h.tokenFor("keys", "keys-secret"), "GET", "/api/v2/clients/"+id, nil), 200, `"client_secret":"`+secret+`"`)
	h.expect(h.call(h.tokenFor("none", "none-secret"), "GET", "/api/v2/clients/"+id, nil), 403, `Insufficient scope, expected any of: read:clients,read:client_keys`)
	h.expect(h.call(admin, "GET", "/api/v2/clients/nope", nil), 404, `{"statusCode":404,"error":"Not Found","message":"The client does not exist","errorCode":"inexistent_client"}`)

	// fields/include_fields.
	r = h.call(admin, "GET", "/api/v2/clients/"+id+"?fields=client_id,name&include_fields=true", nil)
	h.expect(r, 200, `{"name":"app","client_id":"`+id+`"}`)

	// PATCH: keys left out stay, a null clears a nullable field, metadata
	// merges with a null removing a key, a nested object is replaced.
	r = h.call(admin, "PATCH", "/api/v2/clients/"+id, `{"description":"now","callbacks":null,"client_metadata":{"a":null,"c":"3"},"jwt_configuration":{"alg":"HS256"}}`)
	h.expect(r, 200, `"name":"app","description":"now"`, `"jwt_configuration":{"secret_encoded":false,"alg":"HS256"}`, `"client_metadata":{"b":"2","c":"3"}`)
	if strings.Contains(r.body, "callbacks") || strings.Contains(r.body, "lifetime_in_seconds") {
		t.Fatalf("PATCH kept a cleared field or a replaced object's key: %s", r.body)
	}
	h.expect(h.call(admin, "PATCH", "/api/v2/clients/"+id, `{"name":null}`), 400, `Expected type string but found type null' on property name.`)
	h.expect(h.call(admin, "PATCH", "/api/v2/clients/"+id, `{"resource_server_identifier":"https://x"}`), 400, `Additional properties not allowed: resource_server_identifier`)
	h.expect(h.call(admin, "PATCH", "/api/v2/clients/nope", `{"name":"x"}`), 404)

	// Rotation: a new secret; the old one no longer gets a token.
	h.expect(h.call(admin, "POST", "/api/v2/resource-servers", `{"identifier":"https://rot"}`), 201)
	h.expect(h.call(admin, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"https://rot","scope":[]}`), 201)
	if st, _ := h.tokenReply(url.Values{"client_id": {id}, "client_secret": {secret}, "audience": {"https://rot"}}); st != 200 {
		t.Fatalf("token with the first secret: %d", st)
	}
	r = h.call(admin, "POST", "/api/v2/clients/"+id+"/rotate-secret", nil)
	h.expect(r, 200, `"client_id":"`+id+`"`)
	rotated := r.json(t)["client_secret"].(string)
	if rotated == secret || len(rotated) != 64 {
		t.Fatalf("rotated secret %q (was %q)", rotated, secret)
	}
	if st, out := h.tokenReply(url.Values{"client_id": {id}, "client_secret": {secret}, "audience": {"https://rot"}}); st != 401 || out["error"] != "access_denied" {
		t.Fatalf("old secret after rotation: %d %v", st, out)
	}
	if st, _ := h.tokenReply(url.Values{"client_id": {id}, "client_secret": {rotated}, "audience": {"https://rot"}}); st != 200 {
		t.Fatalf("token with the rotated secret: %d", st)
	}
	h.expect(h.call(h.tokenFor("reader", "reader-secret"), "POST", "/api/v2/clients/"+id+"/rotate-secret", nil), 403, "update:client_keys")

	// Delete: 204, again 204 [O]; its grants go with it.
	h.expect(h.call(admin, "DELETE", "/api/v2/clients/"+id, nil), 204)
	h.expect(h.call(admin, "DELETE", "/api/v2/clients/"+id, nil), 204)
	h.expect(h.call(admin, "GET", "/api/v2/clients/"+id, nil), 404)
	h.expect(h.call(admin, "GET", "/api/v2/client-grants?client_id="+id+"&include_totals=true", nil), 200, `"total":0`)
}

// oidc_backchannel_logout is deprecated, not refused: a create and an
// update that send it are kept as sent [O: the incumbent's updates send it];
// null removes it, and a write of oidc_logout mirrors its URLs into it [O].
func TestClients_deprecatedBackchannelLogout(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/clients", `{"name":"b","oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/one"]}}`)
	h.expect(r, 201, `"oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/one"]}`)
	path := "/api/v2/clients/" + r.json(t)["client_id"].(string)
	h.expect(h.call(tok, "PATCH", path, `{"oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/two"]}}`), 200,
		`"oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/two"]}`)
	h.expect(h.call(tok, "GET", path, ""), 200, `"oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/two"]}`)
	h.expect(h.call(tok, "PATCH", path, `{"description":"kept"}`), 200, `"oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/two"]}`)
	h.expect(h.call(tok, "PATCH", path, `{"oidc_logout":{"backchannel_logout_urls":["https://e/three"]}}`), 200,
		`"oidc_backchannel_logout":{"backchannel_logout_urls":["https://e/three"]}`)
	if r := h.call(tok, "PATCH", path, `{"oidc_logout":null,"oidc_backchannel_logout":null}`); r.status != 200 || strings.Contains(r.body, "backchannel") {
		t.Fatalf("null removes both: %d %s", r.status, r.body)
	}
	h.expect(h.call(tok, "PATCH", path, `{"oidc_backchannel_logout":{"backchannel_logout_urls":"https://e/x"}}`), 400,
		`Expected type array but found type string' on property oidc_backchannel_logout.backchannel_logout_urls`)
	h.expect(h.call(tok, "PATCH", path, `{"oidc_backchannel_logout":{"urls":[]}}`), 400, `Additional properties not allowed: urls`)
}

func TestClients_patchMergeSetting(t *testing.T) {
	h := start(t, Options{Assume: tenant.Assumptions{ClientPatch: "merge"}})
	tok := h.admin()
	id := h.client(tok, `{"name":"app","jwt_configuration":{"alg":"RS256","lifetime_in_seconds":600}}`)["client_id"].(string)
	h.expect(h.call(tok, "PATCH", "/api/v2/clients/"+id, `{"jwt_configuration":{"alg":"HS256"}}`), 200,
		`"jwt_configuration":{"secret_encoded":false,"alg":"HS256","lifetime_in_seconds":600}`)
	if _, err := Start(Options{Assume: tenant.Assumptions{ClientPatch: "deep"}}); err == nil {
		t.Fatal("an unknown ClientPatch was accepted")
	}
}

func TestClients_unfitTokenExchangeSetting(t *testing.T) {
	const te = `"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}`
	// Off: the tenant takes the setting on any client.
	h := start(t, Options{})
	h.expect(h.call(h.admin(), "POST", "/api/v2/clients", `{"name":"a",`+te+`}`), 201)
	// On: not OIDC-conformant, or not first-party, is refused; both is taken.
	h = start(t, Options{Assume: tenant.Assumptions{UnfitTokenExchange: "refuse"}})
	tok := h.admin()
	h.expect(h.call(tok, "POST", "/api/v2/clients", `{"name":"a",`+te+`}`), 400, "requires a first-party, OIDC-conformant client")
	h.expect(h.call(tok, "POST", "/api/v2/clients", `{"name":"a","oidc_conformant":true,"is_first_party":false,`+te+`}`), 400)
	id := h.client(tok, `{"name":"a","oidc_conformant":true,`+te+`}`)["client_id"].(string)
	h.expect(h.call(tok, "PATCH", "/api/v2/clients/"+id, `{"oidc_conformant":false}`), 400, "requires a first-party")
}

func TestClients_listPagination(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	for i := range 5 {
		app := "spa"
		if i%2 == 0 {
			app = "native"
		}
		h.client(tok, fmt.Sprintf(`{"name":"c%d","app_type":%q}`, i, app))
	}
	h.expect(h.call(tok, "GET", "/api/v2/clients?include_totals=true&per_page=2&page=2", nil), 200, `"total":6,"start":4,"limit":2,"clients":[{"name":"c3"`)
	h.expect(h.call(tok, "GET", "/api/v2/clients?include_totals=true&app_type=native", nil), 200, `"total":3,`)
	h.expect(h.call(tok, "GET", "/api/v2/clients?include_totals=true&is_global=true", nil), 200, `"total":1,`)
	h.expect(h.call(tok, "GET", "/api/v2/clients?per_page=101", nil), 400, "out of range [1, 100]")
	// Checkpoint pages: next until the last.
	r := h.call(tok, "GET", "/api/v2/clients?take=4&fields=client_id", nil)
	h.expect(r, 200, `"next":"`)
	next := r.json(t)["next"].(string)
	r = h.call(tok, "GET", "/api/v2/clients?take=4&fields=client_id&from="+next, nil)
	h.expect(r, 200)
	if strings.Contains(r.body, "next") || strings.Count(r.body, "client_id") != 2 {
		t.Fatalf("last checkpoint page: %s", r.body)
	}
}

func TestClientGrants(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/","scopes":[{"value":"read:x"},{"value":"write:x"}]}`), 201)
	id := h.client(tok, `{"name":"m2m"}`)["client_id"].(string)

	r := h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"https://api.example.com/","scope":["read:x"]}`)
	h.expect(r, 201, `{"id":"cgr_`, `","client_id":"`+id+`","audience":"https://api.example.com/","scope":["read:x"],"subject_type":"client"}`)
	gid := r.json(t)["id"].(string)
	if len(gid) != 20 {
		t.Fatalf("grant id %q", gid)
	}
	// A second grant for the client and API is a conflict [R].
	h.expect(h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"https://api.example.com/","scope":[]}`), 409, `"statusCode":409,"error":"Conflict"`)
	for body, want := range map[string]string{
		`{"client_id":"nope","audience":"https://api.example.com/","scope":[]}`:                  `404 The client does not exist`,
		`{"client_id":"` + id + `","audience":"https://none","scope":[]}`:                        `404 No resource server found`,
		`{"client_id":"` + id + `","audience":"https://api.example.com/"}`:                       `400 Missing required property: scope`,
		`{"client_id":"` + id + `","audience":"https://api.example.com/","scope":["a","a"]}`:     `400 Array items are not unique`,
		`{"client_id":"` + id + `","audience":"https://api.example.com/","subject_type":"app"}`:  `400 No enum match for: "app"`,
		`{"client_id":"` + id + `","audience":"https://api.example.com/","scope":[],"id":"cgr"}`: `400 Additional properties not allowed: id`,
	} {
		r := h.call(tok, "POST", "/api/v2/client-grants", body)
		status, message, _ := strings.Cut(want, " ")
		if got := fmt.Sprint(r.json(t)["message"]); fmt.Sprint(r.status) != status || !strings.Contains(got, message) {
			t.Errorf("%s: %s, want %s", body, got, want)
		}
	}

	h.expect(h.call(tok, "GET", "/api/v2/client-grants/"+gid, nil), 200, `"scope":["read:x"]`)
	h.expect(h.call(tok, "GET", "/api/v2/client-grants/cgr_missing", nil), 404,
		`{"statusCode":404,"error":"Not Found","message":"The grant does not exist.","errorCode":"inexistent_client_grant"}`)
	// The list: the observed envelope, filters by client and audience.
	h.expect(h.call(tok, "GET", "/api/v2/client-grants?client_id="+id+"&include_totals=true&per_page=50", nil), 200,
		`{"total":1,"start":0,"limit":50,"client_grants":[{"id":"`+gid+`"`)
	h.expect(h.call(tok, "GET", "/api/v2/client-grants?audience=https://api.example.com/&include_totals=true", nil), 200, `"total":1,`)
	h.expect(h.call(tok, "GET", "/api/v2/client-grants?include_totals=true", nil), 200, `"total":2,`) // and the default client's

	// PATCH: the scopes in place; the grant's client and API cannot change.
	h.expect(h.call(tok, "PATCH", "/api/v2/client-grants/"+gid, `{"scope":["read:x","write:x"],"authorization_details_types":[],"organization_usage":"allow"}`), 200,
		`"scope":["read:x","write:x"],"organization_usage":"allow","subject_type":"client","authorization_details_types":[]}`)
	h.expect(h.call(tok, "PATCH", "/api/v2/client-grants/"+gid, `{"audience":"https://x"}`), 400, `Additional properties not allowed: audience`)
	h.expect(h.call(tok, "PATCH", "/api/v2/client-grants/"+gid, `{"allow_all_scopes":true,"scope":["read:x"]}`), 400, `scope is not accepted with allow_all_scopes`)
	h.expect(h.call(tok, "PATCH", "/api/v2/client-grants/"+gid, `{"allow_all_scopes":true}`), 200, `"allow_all_scopes":true`)

	// Delete: 204, again 204 [O]; deleting the API removes its grants.
	h.expect(h.call(tok, "DELETE", "/api/v2/client-grants/"+gid, nil), 204)
	h.expect(h.call(tok, "DELETE", "/api/v2/client-grants/"+gid, nil), 204)
	h.expect(h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"https://api.example.com/","scope":[]}`), 201)
	h.expect(h.call(tok, "DELETE", "/api/v2/resource-servers/https:%2F%2Fapi.example.com%2F", nil), 204)
	h.expect(h.call(tok, "GET", "/api/v2/client-grants?client_id="+id+"&include_totals=true", nil), 200, `"total":0`)
}

func TestToken_honoursGrants(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://orders","scopes":[{"value":"read:orders"},{"value":"write:orders"}]}`), 201)
	c := h.client(tok, `{"name":"m2m"}`)
	id, secret := c["client_id"].(string), c["client_secret"].(string)
	form := func(aud, scope string) url.Values {
		v := url.Values{"client_id": {id}, "client_secret": {secret}, "audience": {aud}}
		if scope != "" {
			v.Set("scope", scope)
		}
		return v
	}
	// No grant: the 403 of reference §6, for the Management API as for another API.
	for _, aud := range []string{"https://orders", h.s.Audience()} {
		st, out := h.tokenReply(form(aud, ""))
		if st != 403 || out["error"] != "access_denied" || out["error_description"] != `Client is not authorized to access "`+aud+`". You need to create a "client-grant" associated to this API. See: https://auth0.com/docs/api/v2#!/Client_Grants/post_client_grants` {
			t.Fatalf("%s without a grant: %d %v", aud, st, out)
		}
	}
	st, out := h.tokenReply(form("https://nowhere", ""))
	if st != 403 || out["error_description"] != "Service not found: https://nowhere" {
		t.Fatalf("unknown audience: %d %v", st, out)
	}
	// With a grant: the grant's scopes, narrowed by a scope parameter.
	h.expect(h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"https://orders","scope":["read:orders"]}`), 201)
	st, out = h.tokenReply(form("https://orders", ""))
	if st != 200 || out["scope"] != "read:orders" || out["expires_in"] != float64(86400) {
		t.Fatalf("with a grant: %d %v", st, out)
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(out["access_token"].(string), claims); err != nil || claims["aud"] != "https://orders" || claims["scope"] != "read:orders" || claims["azp"] != id {
		t.Fatalf("claims %v %v", claims, err)
	}
	// A token for another API is not a Management API token.
	h.expect(h.call(out["access_token"].(string), "GET", "/api/v2/clients", nil), 401, "Bad audience")
	if st, out = h.tokenReply(form("https://orders", "write:orders read:orders")); st != 200 || out["scope"] != "read:orders" {
		t.Fatalf("scope parameter: %d %v", st, out)
	}
	// A user grant does not authorize client credentials; a client without
	// the client_credentials grant type gets none.
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://users"}`), 201)
	h.expect(h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"https://users","scope":[],"subject_type":"user"}`), 201)
	if st, _ := h.tokenReply(form("https://users", "")); st != 403 {
		t.Fatalf("user grant: %d", st)
	}
	h.expect(h.call(tok, "PATCH", "/api/v2/clients/"+id, `{"grant_types":["authorization_code"]}`), 200)
	if st, out := h.tokenReply(form("https://orders", "")); st != 403 || out["error"] != "unauthorized_client" {
		t.Fatalf("without client_credentials: %d %v", st, out)
	}
}

// TestClients_startingClients: the clients the emulator starts with are
// clients of the tenant, each with a grant for the Management API holding
// its scopes; changing that grant changes the next token's scopes.
func TestClients_startingClients(t *testing.T) {
	h := start(t, Options{ClientID: "admin-id", ClientSecret: "admin-secret", Clients: []Client{{ID: "ci", Secret: "ci-secret", Scopes: []string{"read:roles"}}}})
	tok := h.admin()
	h.expect(h.call(tok, "GET", "/api/v2/clients/admin-id", nil), 200, `"name":"Default App","client_id":"admin-id","client_secret":"admin-secret","app_type":"non_interactive"`, `"grant_types":["client_credentials"]`)
	h.expect(h.call(tok, "GET", "/api/v2/clients/ci", nil), 200, `"client_secret":"ci-secret"`)
	r := h.call(tok, "GET", "/api/v2/client-grants?client_id=ci&include_totals=true", nil)
	h.expect(r, 200, `"client_id":"ci","audience":"`+h.s.Audience()+`","scope":["read:roles"],"subject_type":"client"`)
	gid := r.json(t)["client_grants"].([]any)[0].(map[string]any)["id"].(string)
	h.expect(h.call(tok, "GET", "/api/v2/client-grants?client_id=admin-id", nil), 200, `"scope":["read:token_exchange_profiles",`, `"read:client_keys","update:client_keys"]`)

	ci := h.tokenFor("ci", "ci-secret")
	h.expect(h.call(ci, "GET", "/api/v2/roles", nil), 200)
	h.expect(h.call(ci, "GET", "/api/v2/resource-servers", nil), 403)
	h.expect(h.call(tok, "PATCH", "/api/v2/client-grants/"+gid, `{"scope":["read:roles","read:resource_servers"]}`), 200)
	h.expect(h.call(h.tokenFor("ci", "ci-secret"), "GET", "/api/v2/resource-servers", nil), 200)
	// Without its grant the client gets no Management API token.
	h.expect(h.call(tok, "DELETE", "/api/v2/client-grants/"+gid, nil), 204)
	if st, out := h.tokenReply(url.Values{"client_id": {"ci"}, "client_secret": {"ci-secret"}, "audience": {h.s.Audience()}}); st != 403 {
		t.Fatalf("without a grant: %d %v", st, out)
	}
	// Reset brings the starting clients and grants back.
	h.s.Reset()
	h.tokenFor("ci", "ci-secret")
}

// TestClients_stateFile: clients and grants survive a restart from the
// state file, grants for the Management API at its new address.
func TestClients_stateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tenant.json")
	s, err := Start(Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t, s}
	tok := h.admin()
	c := h.client(tok, `{"name":"kept","grant_types":["client_credentials"]}`)
	id, secret := c["client_id"].(string), c["client_secret"].(string)
	h.expect(h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"`+s.Audience()+`","scope":["read:roles"]}`), 201)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Start(Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h = &harness{t, s}
	own := h.tokenFor(id, secret)
	h.expect(h.call(own, "GET", "/api/v2/roles", nil), 200)
	h.expect(h.call(h.admin(), "GET", "/api/v2/clients/"+id, nil), 200, `"name":"kept"`)
}

// TestClientGrants_subjectType: a user grant beside a client grant of the
// same client and API is a conflict with grant_subject_type=shared and
// created with separate; the same subject type is a conflict under both.
func TestClientGrants_subjectType(t *testing.T) {
	for mode, userStatus := range map[string]int{"shared": 409, "separate": 201} {
		t.Run(mode, func(t *testing.T) {
			h := start(t, Options{Assume: tenant.Assumptions{GrantSubjectType: mode}})
			tok := h.admin()
			h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/"}`), 201)
			id := h.client(tok, `{"name":"m2m"}`)["client_id"].(string)
			grant := func(subject string) string {
				return `{"client_id":"` + id + `","audience":"https://api.example.com/","scope":[],"subject_type":"` + subject + `"}`
			}
			h.expect(h.call(tok, "POST", "/api/v2/client-grants", grant("client")), 201)
			h.expect(h.call(tok, "POST", "/api/v2/client-grants", grant("user")), userStatus)
			h.expect(h.call(tok, "POST", "/api/v2/client-grants", grant("client")), 409)
			h.expect(h.call(tok, "POST", "/api/v2/client-grants", grant("user")), 409)
		})
	}
}

// TestClients_rotateReplyKeys: the rotate-secret reply of the recording
// [O] is the client with its new secret, with the description and
// organization_usage its create set (the recorded create sent both).
func TestClients_rotateReplyKeys(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	id := h.client(tok, `{"name":"rotated","description":"This is just a simple test client.","organization_usage":"allow"}`)["client_id"].(string)
	r := h.call(tok, "POST", "/api/v2/clients/"+id+"/rotate-secret", nil)
	h.expect(r, 200)
	got := r.json(t)
	for _, k := range []string{"client_id", "client_secret", "custom_login_page_on", "description", "grant_types", "is_first_party",
		"is_token_endpoint_ip_header_trusted", "jwt_configuration", "name", "oidc_conformant", "organization_usage", "refresh_token",
		"signing_keys", "sso_disabled"} {
		if _, ok := got[k]; !ok {
			t.Errorf("the rotate reply lacks %s: %v", k, got)
		}
	}
	if got["description"] != "This is just a simple test client." || got["organization_usage"] != "allow" {
		t.Errorf("the rotate reply's description and organization_usage: %v, %v", got["description"], got["organization_usage"])
	}
}

// TestToken_ungrantedScope: a scope parameter naming a scope the grant
// does not give is left out of the token (narrow) or refused (refuse).
func TestToken_ungrantedScope(t *testing.T) {
	for _, mode := range []string{"narrow", "refuse"} {
		t.Run(mode, func(t *testing.T) {
			h := start(t, Options{Assume: tenant.Assumptions{UngrantedScope: mode}})
			tok := h.admin()
			h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/","scopes":[{"value":"read:x"},{"value":"write:x"}]}`), 201)
			c := h.client(tok, `{"name":"m2m","grant_types":["client_credentials"]}`)
			id, secret := c["client_id"].(string), c["client_secret"].(string)
			h.expect(h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+id+`","audience":"https://api.example.com/","scope":["read:x"]}`), 201)
			form := func(scope string) url.Values {
				v := url.Values{"client_id": {id}, "client_secret": {secret}, "audience": {"https://api.example.com/"}}
				if scope != "" {
					v.Set("scope", scope)
				}
				return v
			}
			if st, out := h.tokenReply(form("")); st != 200 || out["scope"] != "read:x" {
				t.Fatalf("no scope parameter: %d %v", st, out)
			}
			if st, out := h.tokenReply(form("read:x")); st != 200 || out["scope"] != "read:x" {
				t.Fatalf("a granted scope: %d %v", st, out)
			}
			st, out := h.tokenReply(form("read:x write:x"))
			switch {
			case mode == "narrow" && (st != 200 || out["scope"] != "read:x"):
				t.Fatalf("narrow: %d %v", st, out)
			case mode == "refuse" && (st != 403 || out["error"] != "access_denied" || out["error_description"] != "Client has not been granted scopes: write:x"):
				t.Fatalf("refuse: %d %v", st, out)
			}
		})
	}
}

package emulator

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// withoutID decodes an API object and drops its id, which is new each time.
func withoutID(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("not a JSON object: %s", body)
	}
	delete(m, "id")
	return m
}

func decoded(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The recorded create answer (TestResourceServer_ExpressConfiguration.yaml),
// without its id.
const expressConfigureRecorded = `{"name":"Okta OIN Express Configuration API","identifier":"urn:auth0:express-configure",
"scopes":[{"value":"express_configure:sso","description":"Ability to create SSO configurations"},{"value":"express_configure:scim","description":"Ability to create scim configurations"}],
"signing_alg":"RS256","allow_offline_access":false,"token_lifetime":300,"token_lifetime_for_web":7200,"skip_consent_for_verifiable_first_party_clients":false,
"enforce_policies":true,"is_system":true,"subject_type_authorization":{"user":{"policy":"allow_all"},"client":{"policy":"deny_all"}}}`

func TestResourceServers_expressConfigureTemplate(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	const rs = "/api/v2/resource-servers"
	r := h.call(tok, "POST", rs, `{"identifier":"urn:auth0:express-configure"}`)
	h.expect(r, 201)
	if got, want := withoutID(t, r.body), decoded(t, expressConfigureRecorded); !reflect.DeepEqual(got, want) {
		t.Fatalf("create answer\n got %v\nwant %v", got, want)
	}
	id := r.json(t)["id"].(string)
	if got := withoutID(t, h.call(tok, "GET", rs+"/"+id, nil).body); !reflect.DeepEqual(got, decoded(t, expressConfigureRecorded)) {
		t.Fatalf("read %v", got)
	}
	// Any PATCH is refused, and changes nothing.
	h.expect(h.call(tok, "PATCH", rs+"/"+id, `{"name":"Modified Name"}`), 400)
	h.expect(h.call(tok, "PATCH", rs+"/"+id, `{"token_lifetime":600}`), 400)
	h.expect(h.call(tok, "PATCH", rs+"/urn:auth0:express-configure", `{}`), 400)
	h.expect(h.call(tok, "GET", rs+"/"+id, nil), 200, `"token_lifetime":300`, `"name":"Okta OIN Express Configuration API"`)
	// It is one API: a second create conflicts.
	h.expect(h.call(tok, "POST", rs, `{"identifier":"urn:auth0:express-configure"}`), 409)
	// Deleted (204) and created again, with a new id, as recorded.
	h.expect(h.call(tok, "DELETE", rs+"/"+id, nil), 204)
	h.expect(h.call(tok, "GET", rs+"/"+id, nil), 404)
	r = h.call(tok, "POST", rs, `{"identifier":"urn:auth0:express-configure","name":"Mine","token_lifetime":60}`)
	h.expect(r, 201, `"name":"Okta OIN Express Configuration API"`, `"token_lifetime":300`)
	if r.json(t)["id"] == id {
		t.Fatal("the API came back with its old id")
	}
	h.expect(h.call(tok, "POST", rs, `{"identifier":"urn:auth0:express-configure","bogus":1}`), 400, "Additional properties not allowed: bogus")
}

func TestResourceServers_myAccountTemplate(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	const rs = "/api/v2/resource-servers"
	me := "https://" + h.s.t.Host + "/me/"
	r := h.call(tok, "POST", rs, map[string]any{"identifier": me})
	h.expect(r, 201)
	want := map[string]any{
		"name": "Auth0 My Account API", "identifier": me, "allow_offline_access": true, "skip_consent_for_verifiable_first_party_clients": false,
		"subject_type_authorization": map[string]any{"client": map[string]any{"policy": "deny_all"}, "user": map[string]any{"policy": "require_client_grant"}},
		"token_lifetime":             600.0, "token_lifetime_for_web": 600.0, "signing_alg": "RS256", "is_system": true,
		"scopes": []any{
			map[string]any{"value": "read:me:authentication_methods", "description": "Read Authentication Methods"},
			map[string]any{"value": "delete:me:authentication_methods", "description": "Delete Authentication Methods"},
			map[string]any{"value": "update:me:authentication_methods", "description": "Update Authentication Methods"},
			map[string]any{"value": "read:me:factors", "description": "Read Factors"},
			map[string]any{"value": "create:me:authentication_methods", "description": "Create Authentication Methods"},
		},
	}
	if got := withoutID(t, r.body); !reflect.DeepEqual(got, want) {
		t.Fatalf("create answer\n got %v\nwant %v", got, want)
	}
	id := r.json(t)["id"].(string)
	h.expect(h.call(tok, "PATCH", rs+"/"+id, `{"name":"Renamed"}`), 400, "Additional properties not allowed: name")
	h.expect(h.call(tok, "PATCH", rs+"/"+id, `{"token_lifetime":300}`), 400, "token_lifetime_for_web must be less than or equal to token_lifetime")
	h.expect(h.call(tok, "PATCH", rs+"/"+id, `{"token_lifetime":900}`), 200, `"token_lifetime":900`, `"is_system":true`)
	h.expect(h.call(tok, "DELETE", rs+"/"+id, nil), 204)
	h.expect(h.call(tok, "GET", rs+"/"+id, nil), 404)
	// Another tenant's /me/ is an ordinary API.
	h.expect(h.call(tok, "POST", rs, `{"identifier":"https://other.example.com/me/"}`), 201)
	if strings.Contains(h.call(tok, "GET", rs+"?identifiers=https://other.example.com/me/", nil).body, "is_system") {
		t.Fatal("another host's /me/ became a system API")
	}
	// The Management API itself stays: it cannot be deleted.
	h.expect(h.call(tok, "DELETE", rs+"/"+h.call(tok, "GET", rs+"/"+strings.ReplaceAll(h.s.Audience(), "/", "%2F"), nil).json(t)["id"].(string), nil), 400)
}

// TestStateFile_keepsTemplateSystemAPIs: the system APIs made from templates
// come back after a restart, the My Account API under the new address.
func TestStateFile_keepsTemplateSystemAPIs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	h := start(t, Options{StateFile: file})
	tok := h.admin()
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"urn:auth0:express-configure"}`), 201)
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", map[string]any{"identifier": "https://" + h.s.t.Host + "/me/"}), 201)
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	again := start(t, Options{StateFile: file})
	tok = again.admin()
	again.expect(again.call(tok, "GET", "/api/v2/resource-servers/urn:auth0:express-configure", nil), 200, `"is_system":true`)
	again.expect(again.call(tok, "GET", "/api/v2/resource-servers/"+strings.ReplaceAll("https://"+again.s.t.Host+"/me/", "/", "%2F"), nil), 200, `"name":"Auth0 My Account API"`)
	r := again.call(tok, "GET", "/api/v2/resource-servers", nil)
	if n := strings.Count(r.body, `"is_system":true`); n != 3 {
		t.Fatalf("%d system APIs after the restart, want 3: %s", n, r.body)
	}
}

package emulator

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// keysOf lists an object's keys in the order of the body.
func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestFields_resourceServers: fields with include_fields=true keeps only the
// named keys, as recorded (TestResourceServer_List.yaml:
// fields=id,identifier&include_fields=true); include_fields=false leaves
// them out; include_fields defaults to true.
func TestFields_resourceServers(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	const rs = "/api/v2/resource-servers"
	h.expect(h.call(tok, "POST", rs, `{"identifier":"https://api.example.com/","name":"Example","scopes":[{"value":"read:x"}]}`), 201)
	r := h.call(tok, "GET", rs+"?fields=id%2Cidentifier&identifiers=https%3A%2F%2Fapi.example.com%2F&include_fields=true&include_totals=true&per_page=50", nil)
	h.expect(r, 200)
	var env struct {
		ResourceServers []json.RawMessage `json:"resource_servers"`
	}
	if err := json.Unmarshal([]byte(r.body), &env); err != nil || len(env.ResourceServers) != 1 {
		t.Fatalf("list %s", r.body)
	}
	if got := keysOf(t, env.ResourceServers[0]); !reflect.DeepEqual(got, []string{"id", "identifier"}) {
		t.Fatalf("keys %v of %s", got, r.body)
	}
	if !strings.HasPrefix(r.body, `{"total":1,"start":0,"limit":50,"resource_servers":[{"id":"`) {
		t.Fatalf("envelope %s", r.body)
	}

	// Without include_fields: included. With false: left out.
	var items []json.RawMessage
	r = h.call(tok, "GET", rs+"?fields=identifier,name", nil)
	_ = json.Unmarshal([]byte(r.body), &items)
	for _, it := range items {
		if got := keysOf(t, it); !reflect.DeepEqual(got, []string{"name", "identifier"}) {
			t.Fatalf("keys %v", got)
		}
	}
	r = h.call(tok, "GET", rs+"?fields=scopes,signing_alg&include_fields=false", nil)
	items = nil
	_ = json.Unmarshal([]byte(r.body), &items)
	for _, it := range items {
		for _, k := range keysOf(t, it) {
			if k == "scopes" || k == "signing_alg" {
				t.Fatalf("excluded key %s in %s", k, it)
			}
		}
	}
	if len(items) != 2 {
		t.Fatalf("items %s", r.body)
	}

	// A read of one API.
	one := h.call(tok, "GET", rs+"/https:%2F%2Fapi.example.com%2F?fields=id,name&include_fields=true", nil)
	h.expect(one, 200)
	if got := keysOf(t, json.RawMessage(one.body)); !reflect.DeepEqual(got, []string{"id", "name"}) {
		t.Fatalf("keys %v of %s", got, one.body)
	}
	h.expect(h.call(tok, "GET", rs+"?fields=id&include_fields=maybe", nil), 400, `"errorCode":"invalid_query_string"`, `on property include_fields.`)
	// include_fields without fields changes nothing.
	if r := h.call(tok, "GET", rs+"?include_fields=false", nil); !strings.Contains(r.body, `"identifier"`) {
		t.Fatalf("include_fields alone %s", r.body)
	}
}

// TestFields_users: /users and /users/{id} take fields and include_fields
// (published specification).
func TestFields_users(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/users", recordedUser)
	h.expect(r, 201)
	id := r.json(t)["user_id"].(string)
	r = h.call(tok, "GET", "/api/v2/users?fields=user_id,email&include_totals=true", nil)
	h.expect(r, 200, `"users":[{"email":"chuck728@example.com","user_id":"`+id+`"}]`)
	r = h.call(tok, "GET", "/api/v2/users/"+id+"?fields=user_metadata,app_metadata,identities&include_fields=false", nil)
	h.expect(r, 200, `"user_id":"`+id+`"`)
	for _, k := range []string{"user_metadata", "app_metadata", "identities"} {
		if strings.Contains(r.body, k) {
			t.Fatalf("excluded %s in %s", k, r.body)
		}
	}
}

// TestFields_otherRoutes: the routes whose specification names neither
// parameter ignore them by default; with FieldsEverywhere they apply them
// like the others.
func TestFields_otherRoutes(t *testing.T) {
	for _, everywhere := range []bool{false, true} {
		h := start(t, Options{FieldsEverywhere: everywhere})
		tok := h.admin()
		role := h.call(tok, "POST", "/api/v2/roles", `{"name":"r","description":"d"}`).json(t)["id"].(string)
		h.action(tok, "post-login", false)
		for _, path := range []string{
			"/api/v2/roles?fields=id", "/api/v2/roles/" + role + "?fields=id", actionsPath + "?fields=id", "/api/v2/token-exchange-profiles?fields=id",
		} {
			r := h.call(tok, "GET", path, nil)
			h.expect(r, 200)
			projected := !strings.Contains(r.body, `"name"`) && strings.Contains(r.body, `"id"`)
			if strings.Contains(path, "token-exchange") {
				projected = everywhere // an empty list: the envelope is the same either way
			}
			if projected != everywhere {
				t.Errorf("FieldsEverywhere %v: GET %s answered %s", everywhere, path, r.body)
			}
		}
	}
}

// TestRouting_unservedRouteIsLogged: a route the emulator does not serve
// answers the API's 404 body, and the log names the method and path.
func TestRouting_unservedRouteIsLogged(t *testing.T) {
	var log emutest.Log
	h := start(t, Options{Log: &log})
	tok := h.admin()
	r := h.call(tok, "GET", "/api/v2/logs?fields=id", nil)
	h.expect(r, 404)
	if r.body != `{"statusCode":404,"error":"Not Found","message":"Not Found"}`+"\n" {
		t.Fatalf("404 body %q", r.body)
	}
	h.expect(h.call(tok, "POST", "/api/v2/hooks", `{"name":"acme"}`), 404)
	h.expect(h.call(tok, "GET", "/api/v2/roles", nil), 200)
	out := log.String()
	for _, want := range []string{"GET /api/v2/logs", "POST /api/v2/hooks", "not served"} {
		if !strings.Contains(out, want) {
			t.Fatalf("log %q lacks %q", out, want)
		}
	}
	if strings.Contains(out, "/api/v2/roles") || strings.Count(out, "\n") != 2 {
		t.Fatalf("log %q: one line per unserved request, none for served ones", out)
	}
}

package emulator

import (
	"regexp"
	"testing"
)

func TestRoles_codes(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/roles", `{"name":"plain"}`)
	h.expect(r, 200)
	if !regexp.MustCompile(`^\{"id":"rol_[A-Za-z0-9]{16}","name":"plain","type":"tenant"\}\n$`).MatchString(r.body) {
		t.Fatalf("create answer %s", r.body)
	}
	id := r.json(t)["id"].(string)
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id, nil), 200, `{"id":"`+id+`","name":"plain","description":"","type":"tenant"}`)
	h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"described","description":"d"}`), 200, `"name":"described","description":"d","type":"tenant"}`)
	h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"plain","description":"again"}`), 409,
		`{"statusCode":409,"error":"Conflict","message":"The role already exists."}`)

	// PATCH answers the full role; a refused one changes nothing.
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"description":"now described"}`), 200, `{"id":"`+id+`","name":"plain","description":"now described","type":"tenant"}`)
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"name":"renamed"}`), 200, `"name":"renamed","description":"now described"`)
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"name":"described","description":"x"}`), 409, `"message":"The role already exists."`)
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"name":"renamed"}`), 200) // its own name is no conflict
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"type":"organization"}`), 400, "Additional properties not allowed: type")
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"name":null}`), 400, "Expected type string but found type null' on property name.")
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id, nil), 200, `"name":"renamed","description":"now described"`)
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"description":null}`), 200, `"description":""`)

	// Organization roles carry owner_id.
	h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"org","type":"organization","owner_id":"org_1"}`), 200, `"name":"org","type":"organization","owner_id":"org_1"}`)
	h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"org2","type":"organization"}`), 400, "Missing required property: owner_id")
	h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"org3","owner_id":"org_1"}`), 400, "on property owner_id.")
	h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"org4","type":"team"}`), 400, `No enum match for: \"team\"' on property type.`)

	notFound := `{"statusCode":404,"error":"Not Found","message":"The role does not exist."}`
	r = h.call(tok, "DELETE", "/api/v2/roles/"+id, `{}`)
	h.expect(r, 200)
	if r.body != "{}\n" {
		t.Fatalf("delete answer %q", r.body)
	}
	h.expect(h.call(tok, "DELETE", "/api/v2/roles/"+id, `{}`), 404, notFound)
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id, nil), 404, notFound)
	h.expect(h.call(tok, "PATCH", "/api/v2/roles/"+id, `{"name":"x"}`), 404, notFound)
}

// Removing pairs that are not assigned answers 204, and a pair of an API
// that does not exist is not assigned (reference §0.5, §3); an unknown role
// is 404 (§0.4), and adding a pair of an unknown API is 404 (§0.4, [R]).
func TestRolePermissions_unknownRoleAndAPI(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/p","scopes":[{"value":"read:p"},{"value":"write:p"}]}`), 201)
	r := h.call(tok, "POST", "/api/v2/roles", `{"name":"perms"}`)
	h.expect(r, 200)
	id := r.json(t)["id"].(string)
	pair := func(ident, name string) string {
		return `{"resource_server_identifier":"` + ident + `","permission_name":"` + name + `"}`
	}
	h.expect(h.call(tok, "POST", "/api/v2/roles/"+id+"/permissions",
		`{"permissions":[`+pair("https://api.example.com/p", "read:p")+`,`+pair("https://api.example.com/p", "write:p")+`]}`), 201)

	r = h.call(tok, "DELETE", "/api/v2/roles/"+id+"/permissions",
		`{"permissions":[`+pair("https://no-such-api.example.com", "read:p")+`,`+pair("https://api.example.com/p", "read:p")+`]}`)
	h.expect(r, 204)
	if r.body != "" {
		t.Fatalf("204 with a body %q", r.body)
	}
	h.expect(h.call(tok, "DELETE", "/api/v2/roles/"+id+"/permissions", `{"permissions":[`+pair("https://no-such-api.example.com", "x")+`]}`), 204)
	r = h.call(tok, "GET", "/api/v2/roles/"+id+"/permissions", nil)
	h.expect(r, 200, `[{"permission_name":"write:p","description":"","resource_server_name":"","resource_server_identifier":"https://api.example.com/p"}]`)

	notFound := `{"statusCode":404,"error":"Not Found","message":"The role does not exist."}`
	h.expect(h.call(tok, "DELETE", "/api/v2/roles/rol_0000000000000000/permissions", `{"permissions":[`+pair("https://api.example.com/p", "write:p")+`]}`), 404, notFound)
	h.expect(h.call(tok, "POST", "/api/v2/roles/rol_0000000000000000/permissions", `{"permissions":[`+pair("https://api.example.com/p", "write:p")+`]}`), 404, notFound)

	h.expect(h.call(tok, "POST", "/api/v2/roles/"+id+"/permissions", `{"permissions":[`+pair("https://no-such-api.example.com", "read:p")+`]}`), 404,
		`"message":"The resource server does not exist: 'https://no-such-api.example.com'"`)
	h.expect(h.call(tok, "GET", "/api/v2/roles/"+id+"/permissions", nil), 200, `[{"permission_name":"write:p"`)
}

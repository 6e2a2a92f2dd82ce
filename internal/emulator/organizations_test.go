package emulator

import (
	"regexp"
	"strings"
	"testing"
)

// The organization routes answer as recorded (go-auth0 v1.46.0
// TestOrganizationManager_*.yaml): create, list, read by id and by name,
// update, delete; members; enabled connections.
func TestOrganizations_lifecycle(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/connections", `{"name":"test-conn654","strategy":"ad"}`)
	h.expect(r, 201)
	conn := r.json(t)["id"].(string)
	r = h.call(tok, "POST", "/api/v2/organizations", `{"name":"test-organization994","display_name":"Test Organization","branding":{"logo_url":"https://example.com/logo.gif"},`+
		`"enabled_connections":[{"connection_id":"`+conn+`","assign_membership_on_login":true,"show_as_button":true}]}`)
	h.expect(r, 201, `"display_name":"Test Organization"`, `"branding":{"logo_url":"https://example.com/logo.gif"}`,
		`"enabled_connections":[{"connection_id":"`+conn+`","assign_membership_on_login":true,"show_as_button":true,"connection":{"name":"test-conn654","strategy":"ad"}}]`)
	org := r.json(t)["id"].(string)
	if !regexp.MustCompile(`^org_[A-Za-z0-9]{16}$`).MatchString(org) {
		t.Fatalf("id %q", org)
	}
	read := `{"id":"` + org + `","name":"test-organization994","display_name":"Test Organization","branding":{"logo_url":"https://example.com/logo.gif"}}` + "\n"
	if r := h.call(tok, "GET", "/api/v2/organizations/"+org, nil); r.body != read {
		t.Fatalf("read %s", r.body)
	}
	if r := h.call(tok, "GET", "/api/v2/organizations/name/test-organization994", nil); r.body != read {
		t.Fatalf("read by name %s", r.body)
	}
	// By name only: an id is not a name here, as it is for the exchange's organization.
	h.expect(h.call(tok, "GET", "/api/v2/organizations/name/"+org, nil), 404, "No organization found by that name")
	h.expect(h.call(tok, "GET", "/api/v2/organizations?include_totals=true&per_page=50", nil), 200, `{"organizations":[{"id":"`+org+`"`, `"start":0,"limit":50,"total":1}`)
	h.expect(h.call(tok, "PATCH", "/api/v2/organizations/"+org, `{"name":"new-org-name"}`), 200, `"name":"new-org-name"`, `"display_name":"Test Organization"`)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/name/test-organization994", nil), 404)
	for body, want := range map[string]string{
		`{"display_name":"x"}`:           `'Missing required property: name'.`,
		`{"name":"Upper Case"}`:          "does not match pattern",
		`{"name":"new-org-name"}`:        "already exists",
		`{"name":"ok","extra":1}`:        "Additional properties not allowed: extra",
		`{"name":"ok","branding":"red"}`: "on property branding",
	} {
		r := h.call(tok, "POST", "/api/v2/organizations", body)
		if r.status != 400 && r.status != 409 || !strings.Contains(r.body, want) {
			t.Fatalf("%s: %d %s", body, r.status, r.body)
		}
	}

	// Members.
	r = h.call(tok, "POST", "/api/v2/users", recordedUser)
	h.expect(r, 201)
	user := r.json(t)["user_id"].(string)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/members", `{"members":["`+user+`"]}`), 204)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?include_totals=true&per_page=50", nil), 200,
		`{"members":[{"user_id":"`+user+`","email":"chuck728@example.com","picture":"https://example-picture-url.jpg","name":"chuck728@example.com"}],"start":0,"limit":50,"total":1}`)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?fields=user_id,roles&include_fields=true&include_totals=true&per_page=50", nil), 200,
		`{"members":[{"user_id":"`+user+`","roles":[]}],"start":0,"limit":50,"total":1}`)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/members", `{"members":["auth0|nobody"]}`), 404, "The user does not exist.")
	for body, want := range map[string]string{
		`{"members":[]}`:                 `'Array is too short (0), minimum 1' on property members.`,
		`{"members":["auth0|nobody",1]}`: `'Expected type string but found type number' on property members[1].`,
		`{"member":["auth0|nobody"]}`:    "Additional properties not allowed: member",
	} {
		h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/members", body), 400, want)
	}
	h.expect(h.call(tok, "DELETE", "/api/v2/organizations/"+org+"/members", `{"members":["`+user+`"]}`), 204)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?include_totals=true&per_page=50", nil), 200, `{"members":[],"start":0,"limit":50,"total":0}`)

	// Enabled connections.
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/enabled_connections?include_totals=true&per_page=50", nil), 200,
		`{"enabled_connections":[{"connection_id":"`+conn+`"`, `"total":1}`)
	h.expect(h.call(tok, "PATCH", "/api/v2/organizations/"+org+"/enabled_connections/"+conn, `{"assign_membership_on_login":false,"show_as_button":false}`), 200,
		`{"connection_id":"`+conn+`","assign_membership_on_login":false,"show_as_button":false,"connection":{"name":"test-conn654","strategy":"ad"}}`)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/enabled_connections", `{"connection_id":"`+conn+`"}`), 409)
	h.expect(h.call(tok, "DELETE", "/api/v2/organizations/"+org+"/enabled_connections/"+conn, nil), 204)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/enabled_connections/"+conn, nil), 404, `"message":"No connection found by that id"`)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/enabled_connections", `{"connection_id":"`+conn+`","assign_membership_on_login":true}`), 201,
		`{"connection_id":"`+conn+`","assign_membership_on_login":true,"show_as_button":true,"connection":{"name":"test-conn654","strategy":"ad"}}`)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/enabled_connections", `{"connection_id":"con_nope"}`), 404)
	// A deleted connection leaves the organization.
	h.expect(h.call(tok, "DELETE", "/api/v2/connections/"+conn, nil), 202)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/enabled_connections", nil), 200, `[]`)

	// Scopes.
	h.s.AddClient(Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:organizations"}})
	rt := h.tokenFor("reader", "reader-secret")
	h.expect(h.call(rt, "GET", "/api/v2/organizations/"+org, nil), 200)
	h.expect(h.call(rt, "GET", "/api/v2/organizations/"+org+"/members", nil), 403, "read:organization_members")
	h.expect(h.call(rt, "GET", "/api/v2/organizations/"+org+"/enabled_connections", nil), 403, "read:organization_connections")
	h.expect(h.call(rt, "POST", "/api/v2/organizations", `{"name":"x"}`), 403, "create:organizations")
	h.expect(h.call(rt, "DELETE", "/api/v2/organizations/"+org, nil), 403, "delete:organizations")

	h.expect(h.call(tok, "DELETE", "/api/v2/organizations/"+org, nil), 204)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org, nil), 404)
}

// Members' checkpoint pages keep next until a page is empty (recorded), and
// sign-up on an enabled connection needs a database connection that
// assigns membership on login (go-auth0's own test against a tenant).
func TestOrganizations_memberPagesAndSignup(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/organizations", `{"name":"pages"}`)
	h.expect(r, 201)
	org := r.json(t)["id"].(string)
	var ids []string
	for i := range 3 {
		r := h.call(tok, "POST", "/api/v2/users", `{"connection":"Username-Password-Authentication","email":"m`+string(rune('a'+i))+`@example.com","password":"p4ssw0rd!"}`)
		h.expect(r, 201)
		ids = append(ids, `"`+r.json(t)["user_id"].(string)+`"`)
	}
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/members", `{"members":[`+strings.Join(ids, ",")+`]}`), 204)
	r = h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?include_totals=true&per_page=50&take=2", nil)
	h.expect(r, 200, `"next":"`)
	next := r.json(t)["next"].(string)
	r = h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?take=2&from="+next, nil)
	h.expect(r, 200, `"next":"`)
	if strings.Count(r.body, `"user_id"`) != 1 {
		t.Fatalf("second page %s", r.body)
	}
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?take=2&from="+r.json(t)["next"].(string), nil), 200, `{"members":[]}`)
	r = h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?take=1&fields=user_id", nil)
	h.expect(r, 200, `{"members":[{"user_id":"`, `"}],"next":"`)
	if strings.Contains(r.body, "email") {
		t.Fatalf("fields on a checkpoint page: %s", r.body)
	}
	// fields and include_fields are read before the page, as on the other lists.
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?take=0&include_fields=maybe", nil), 400, "on property include_fields.")

	db := regexp.MustCompile(`con_[A-Za-z0-9]{16}`).FindString(h.call(tok, "GET", "/api/v2/connections?name=Username-Password-Authentication", nil).body)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/enabled_connections", `{"connection_id":"`+db+`","assign_membership_on_login":false,"is_signup_enabled":true}`), 400,
		"Only database connections with assign_membership_on_login = true support is_signup_enabled = true.")
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/enabled_connections", `{"connection_id":"`+db+`","assign_membership_on_login":true,"is_signup_enabled":true}`), 201, `"is_signup_enabled":true`)
	h.expect(h.call(tok, "PATCH", "/api/v2/organizations/"+org+"/enabled_connections/"+db, `{"assign_membership_on_login":false}`), 400, "is_signup_enabled")
	h.expect(h.call(tok, "PATCH", "/api/v2/organizations/"+org+"/enabled_connections/"+db, `{"assign_membership_on_login":false,"is_signup_enabled":false}`), 200)
}

// Client grants associated with an organization, both ways (recorded:
// TestOrganizationManager_ClientGrants.yaml,
// TestClientGrantManager_Organizations.yaml).
func TestOrganizations_clientGrants(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/organizations", `{"name":"grants","display_name":"Grants"}`)
	h.expect(r, 201)
	org := r.json(t)["id"].(string)
	h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/","scopes":[{"value":"create:resource"}]}`), 201)
	r = h.call(tok, "POST", "/api/v2/clients", `{"name":"m2m","app_type":"non_interactive"}`)
	h.expect(r, 201)
	client := r.json(t)["client_id"].(string)
	r = h.call(tok, "POST", "/api/v2/client-grants", `{"client_id":"`+client+`","audience":"https://api.example.com/","scope":["create:resource"],"allow_any_organization":true,"organization_usage":"allow"}`)
	h.expect(r, 201)
	grant := r.json(t)["id"].(string)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/client-grants", `{"grant_id":"`+grant+`"}`), 201,
		`{"grant_id":"`+grant+`","client_id":"`+client+`","audience":"https://api.example.com/","scope":["create:resource"],"organization_usage":"allow","allow_any_organization":true}`)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/client-grants?include_totals=true&per_page=50", nil), 200,
		`{"client_grants":[{"id":"`+grant+`","client_id":"`+client+`",`, `"start":0,"limit":50,"total":1}`)
	h.expect(h.call(tok, "GET", "/api/v2/client-grants/"+grant+"/organizations?include_totals=true&per_page=50", nil), 200,
		`{"organizations":[{"id":"`+org+`","name":"grants","display_name":"Grants"}],"start":0,"limit":50,"total":1}`)
	// One without a display name shows it empty in that list (recorded: always there).
	r = h.call(tok, "POST", "/api/v2/organizations", `{"name":"plain"}`)
	h.expect(r, 201)
	plain := r.json(t)["id"].(string)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+plain+"/client-grants", `{"grant_id":"`+grant+`"}`), 201)
	h.expect(h.call(tok, "GET", "/api/v2/client-grants/"+grant+"/organizations", nil), 200,
		`{"id":"`+plain+`","name":"plain","display_name":""}`)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/client-grants", `{"grant_id":"cgr_nope"}`), 404)
	// The list shows the grants as /client-grants does; grant_ids filters.
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/client-grants?grant_ids="+grant, nil), 200, strings.TrimSuffix(h.call(tok, "GET", "/api/v2/client-grants/"+grant, nil).body, "\n"))
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/client-grants?grant_ids=cgr_other", nil), 200, `[]`)
	// The clients whose grants are the organization's.
	r = h.call(tok, "GET", "/api/v2/clients?q=client_grant.organization_id:"+org+"&take=50", nil)
	h.expect(r, 200, `{"clients":[{`, `"client_id":"`+client+`"`)
	if strings.Count(r.body, `"client_id"`) != 1 {
		t.Fatalf("the organization's clients: %s", r.body)
	}
	h.expect(h.call(tok, "DELETE", "/api/v2/organizations/"+org+"/client-grants/"+grant, nil), 204)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/client-grants?include_totals=true&per_page=50", nil), 200, `{"client_grants":[],"start":0,"limit":50,"total":0}`)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/client-grants", `{"grant_id":"`+grant+`"}`), 201)
	h.expect(h.call(tok, "DELETE", "/api/v2/client-grants/"+grant, nil), 204)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/client-grants", nil), 200, `[]`)
}

// A member's roles (recorded: TestOrganizationManager_MemberRoles.yaml,
// _Members.yaml): assigned before or after the user joins, listed on their
// own and with the members when fields asks for them.
func TestOrganizations_memberRoles(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/organizations", `{"name":"roles"}`)
	h.expect(r, 201)
	org := r.json(t)["id"].(string)
	r = h.call(tok, "POST", "/api/v2/users", recordedUser)
	h.expect(r, 201)
	user := r.json(t)["user_id"].(string)
	path := "/api/v2/organizations/" + org + "/members/" + strings.ReplaceAll(user, "|", "%7C") + "/roles"
	r = h.call(tok, "POST", "/api/v2/roles", `{"name":"test-role403","description":"Test Role"}`)
	h.expect(r, 200)
	role := r.json(t)["id"].(string)
	h.expect(h.call(tok, "POST", path, `{"roles":["`+role+`"]}`), 204)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/members", `{"members":["`+user+`"]}`), 204)
	h.expect(h.call(tok, "GET", path+"?include_totals=true&per_page=50", nil), 200,
		`{"roles":[{"id":"`+role+`","name":"test-role403","description":"Test Role"}],"start":0,"limit":50,"total":1}`)
	h.expect(h.call(tok, "GET", "/api/v2/organizations/"+org+"/members?fields=user_id,roles&include_fields=true&include_totals=true&per_page=50", nil), 200,
		`{"members":[{"user_id":"`+user+`","roles":[{"id":"`+role+`","name":"test-role403"}]}],"start":0,"limit":50,"total":1}`)
	h.expect(h.call(tok, "POST", path, `{"roles":["rol_nope"]}`), 404, "The role does not exist.")
	h.expect(h.call(tok, "POST", path, `{"roles":["rol_nope","rol_nope"]}`), 400, `'Array items are not unique' on property roles.`)
	h.expect(h.call(tok, "DELETE", path, `{"roles":["`+role+`"]}`), 204)
	h.expect(h.call(tok, "GET", path+"?include_totals=true&per_page=50", nil), 200, `{"roles":[],"start":0,"limit":50,"total":0}`)
}

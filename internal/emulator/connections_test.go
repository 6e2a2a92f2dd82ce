package emulator

import (
	"regexp"
	"strings"
	"testing"
)

// The connection routes answer as recorded (go-auth0 v1.46.0
// TestConnectionManager_*.yaml): create with the tenant's options for the
// strategy or those sent, as sent; list, read, update (options replaced
// whole), delete (202 {"deleted_at"}).
func TestConnections_lifecycle(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/connections", `{"name":"Test-AD-Connection-1","strategy":"ad"}`)
	h.expect(r, 201)
	ad := r.json(t)["id"].(string)
	if !regexp.MustCompile(`^\{"id":"con_[A-Za-z0-9]{16}","options":\{"ips":null,"brute_force_protection":true\},"strategy":"ad","name":"Test-AD-Connection-1",` +
		`"is_domain_connection":false,"enabled_clients":\[\],"realms":\["Test-AD-Connection-1"\]\}\n$`).MatchString(r.body) {
		t.Fatalf("create answer %s", r.body)
	}
	options := `{"client_id":"4ef8d976","client_secret":"mySecret","domain":"domain.okta.com","issuer":"https://example.com","scope":"openid","upstream_params":{"screen_name":{"alias":"login_hint"}}}`
	r = h.call(tok, "POST", "/api/v2/connections", `{"name":"partner-okta","display_name":"Partner","strategy":"okta","options":`+options+`,"show_as_button":true,"metadata":{"team":"b2b"}}`)
	h.expect(r, 201, `"options":`+options+`,"strategy":"okta","name":"partner-okta","is_domain_connection":false,"show_as_button":true,"display_name":"Partner",`, `"metadata":{"team":"b2b"}`)
	okta := r.json(t)["id"].(string)

	h.expect(h.call(tok, "GET", "/api/v2/connections/"+okta, nil), 200, `"options":`+options)
	// The default database connection is there from the start.
	r = h.call(tok, "GET", "/api/v2/connections?fields=id,name&include_totals=true&per_page=50", nil)
	h.expect(r, 200, `{"total":3,"start":0,"limit":50,"connections":[{"id":"con_`, `"name":"Username-Password-Authentication"`, `"name":"partner-okta"`)
	h.expect(h.call(tok, "GET", "/api/v2/connections?strategy=okta&strategy=ad", nil), 200, `"name":"Test-AD-Connection-1"`, `"name":"partner-okta"`)
	if r := h.call(tok, "GET", "/api/v2/connections?name=partner-okta", nil); strings.Count(r.body, `"id":"con_`) != 1 {
		t.Fatalf("by name: %s", r.body)
	}

	// Options sent replace the stored ones whole.
	r = h.call(tok, "PATCH", "/api/v2/connections/"+ad, `{"options":{"strategy_version":2,"upstream_params":{"screen_name":{"alias":"login_hint"}}},"display_name":"AD"}`)
	h.expect(r, 200, `"options":{"strategy_version":2,"upstream_params":{"screen_name":{"alias":"login_hint"}}}`, `"display_name":"AD"`)
	h.expect(h.call(tok, "PATCH", "/api/v2/connections/"+ad, `{"strategy":"auth0"}`), 400, "Additional properties not allowed: strategy")

	for body, want := range map[string]string{
		`{"strategy":"auth0"}`:                        `'Missing required property: name'.`,
		`{"name":"x"}`:                                `'Missing required property: strategy'.`,
		`{"name":"bad name","strategy":"auth0"}`:      "does not match pattern",
		`{"name":"x","strategy":"no-such-strategy"}`:  "on property strategy",
		`{"name":"x","strategy":"auth0","extra":1}`:   "Additional properties not allowed: extra",
		`{"name":"x","strategy":"auth0","options":1}`: "on property options",
	} {
		h.expect(h.call(tok, "POST", "/api/v2/connections", body), 400, want)
	}
	h.expect(h.call(tok, "POST", "/api/v2/connections", `{"name":"partner-okta","strategy":"okta"}`), 409)

	// Deleting a connection deletes its users.
	h.expect(h.call(tok, "POST", "/api/v2/connections", `{"name":"staff-db","strategy":"auth0"}`), 201)
	r = h.call(tok, "POST", "/api/v2/users", `{"connection":"staff-db","email":"ann@example.com","password":"p4ssw0rd!"}`)
	h.expect(r, 201, `"identities":[{"connection":"staff-db",`)
	staffUser := r.json(t)["user_id"].(string)
	h.expect(h.call(tok, "GET", "/api/v2/users?connection=staff-db", nil), 200, staffUser)
	staff := h.call(tok, "GET", "/api/v2/connections?name=staff-db", nil).body
	staffID := regexp.MustCompile(`con_[A-Za-z0-9]{16}`).FindString(staff)
	h.expect(h.call(tok, "DELETE", "/api/v2/connections/"+staffID, nil), 202, `{"deleted_at":"`)
	h.expect(h.call(tok, "GET", "/api/v2/users/"+strings.ReplaceAll(staffUser, "|", "%7C"), nil), 404)
	h.expect(h.call(tok, "GET", "/api/v2/connections/"+staffID, nil), 404)
	h.expect(h.call(tok, "DELETE", "/api/v2/connections/"+okta, nil), 202)

	// Scopes: read:connections and the other verbs, as the other routes.
	h.s.AddClient(Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:connections"}})
	rt := h.tokenFor("reader", "reader-secret")
	h.expect(h.call(rt, "GET", "/api/v2/connections", nil), 200)
	h.expect(h.call(rt, "POST", "/api/v2/connections", `{"name":"y","strategy":"auth0"}`), 403, "create:connections")
	h.expect(h.call(rt, "DELETE", "/api/v2/connections/"+ad, nil), 403, "delete:connections")
	h.expect(h.call(rt, "PATCH", "/api/v2/connections/"+ad+"/clients", `[]`), 403, "update:connections")
}

// The clients a connection is enabled for, in both directions the API
// has; a new client gets every connection (enable_client_connections,
// default true), the default database connection included.
func TestConnections_enabledClients(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/connections", `{"name":"corp-saml","strategy":"samlp","enabled_clients":["`+h.s.ClientID()+`"]}`)
	h.expect(r, 201, `"enabled_clients":["`+h.s.ClientID()+`"]`)
	saml := r.json(t)["id"].(string)
	r = h.call(tok, "POST", "/api/v2/clients", `{"name":"web"}`)
	h.expect(r, 201)
	web := r.json(t)["client_id"].(string)

	r = h.call(tok, "GET", "/api/v2/clients/"+web+"/connections?take=50", nil)
	h.expect(r, 200, `{"connections":[{"id":"con_`, `"name":"Username-Password-Authentication"`, `"name":"corp-saml"`)
	if strings.Contains(r.body, "enabled_clients") || strings.Contains(r.body, `"next"`) {
		t.Fatalf("client's connections %s", r.body)
	}
	h.expect(h.call(tok, "GET", "/api/v2/clients/"+web+"/connections?strategy=samlp", nil), 200, `"name":"corp-saml"`)
	if r := h.call(tok, "GET", "/api/v2/clients/"+web+"/connections?strategy=samlp", nil); strings.Contains(r.body, "Username-Password") {
		t.Fatalf("strategy filter %s", r.body)
	}

	// Disable, then enable again (TestConnectionManager_EnabledClients.yaml).
	h.expect(h.call(tok, "PATCH", "/api/v2/connections/"+saml+"/clients", `[{"client_id":"`+web+`","status":false}]`), 204)
	h.expect(h.call(tok, "GET", "/api/v2/connections/"+saml+"/clients", nil), 200, `{"clients":[{"client_id":"`+h.s.ClientID()+`"}]}`)
	h.expect(h.call(tok, "GET", "/api/v2/connections/"+saml, nil), 200, `"enabled_clients":["`+h.s.ClientID()+`"]`)
	if r := h.call(tok, "GET", "/api/v2/clients/"+web+"/connections", nil); strings.Contains(r.body, "corp-saml") {
		t.Fatalf("disabled connection still listed: %s", r.body)
	}
	h.expect(h.call(tok, "PATCH", "/api/v2/connections/"+saml+"/clients", `[{"client_id":"`+web+`","status":true}]`), 204)
	h.expect(h.call(tok, "GET", "/api/v2/connections/"+saml+"/clients?take=1", nil), 200, `{"clients":[{"client_id":"`+h.s.ClientID()+`"}],"next":"`)
	h.expect(h.call(tok, "PATCH", "/api/v2/connections/"+saml+"/clients", `[{"client_id":"nobody","status":true}]`), 404)
	h.expect(h.call(tok, "PATCH", "/api/v2/connections/"+saml+"/clients", `[{"client_id":"`+web+`"}]`), 400, "status")

	// A deleted client leaves its connections.
	h.expect(h.call(tok, "DELETE", "/api/v2/clients/"+web, nil), 204)
	h.expect(h.call(tok, "GET", "/api/v2/connections/"+saml+"/clients", nil), 200, `{"clients":[{"client_id":"`+h.s.ClientID()+`"}]}`)
	h.expect(h.call(tok, "GET", "/api/v2/clients/"+web+"/connections", nil), 404)
}

// Connections are kept in the state file with the clients they are
// enabled for, and organizations with their members and connections.
func TestConnections_persisted(t *testing.T) {
	file := t.TempDir() + "/state.json"
	h := start(t, Options{StateFile: file})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/connections", `{"name":"kept","strategy":"oidc","options":{"issuer":"https://idp.example.com"},"enabled_clients":["`+h.s.ClientID()+`"]}`)
	h.expect(r, 201)
	conn := r.json(t)["id"].(string)
	r = h.call(tok, "POST", "/api/v2/organizations", `{"name":"kept-org","enabled_connections":[{"connection_id":"`+conn+`"}]}`)
	h.expect(r, 201)
	org := r.json(t)["id"].(string)
	r = h.call(tok, "POST", "/api/v2/users", recordedUser)
	h.expect(r, 201)
	user := r.json(t)["user_id"].(string)
	h.expect(h.call(tok, "POST", "/api/v2/organizations/"+org+"/members", `{"members":["`+user+`"]}`), 204)
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	h2 := start(t, Options{StateFile: file})
	h2.expect(h2.call(h2.admin(), "GET", "/api/v2/connections?name=kept", nil), 200, `"options":{"issuer":"https://idp.example.com"}`, `"enabled_clients":["`+h.s.ClientID()+`"]`)
	h2.expect(h2.call(h2.admin(), "GET", "/api/v2/organizations/name/kept-org", nil), 200, `"id":"`+org+`"`)
	h2.expect(h2.call(h2.admin(), "GET", "/api/v2/organizations/"+org+"/members", nil), 200, `"user_id":"`+user+`"`)
	h2.expect(h2.call(h2.admin(), "GET", "/api/v2/organizations/"+org+"/enabled_connections", nil), 200, `"connection_id":"`+conn+`"`)
	r = h2.call(h2.admin(), "GET", "/api/v2/connections?name=Username-Password-Authentication", nil)
	if strings.Count(r.body, `"id":"con_`) != 1 {
		t.Fatalf("the default connection after a restart: %s", r.body)
	}
}

// With the tenant flag enable_client_connections off, a new client is
// enabled for no connection (as the tenant go-auth0 records against:
// TestClientManager_ReadEnabledConnections.yaml); the starting clients
// keep the default connection.
func TestConnections_noClientConnections(t *testing.T) {
	h := start(t, Options{NoClientConnections: true})
	tok := h.admin()
	r := h.call(tok, "POST", "/api/v2/clients", `{"name":"web"}`)
	h.expect(r, 201)
	web := r.json(t)["client_id"].(string)
	h.expect(h.call(tok, "GET", "/api/v2/clients/"+web+"/connections?take=50", nil), 200, `{"connections":[]}`)
	h.expect(h.call(tok, "GET", "/api/v2/clients/"+h.s.ClientID()+"/connections", nil), 200, `"name":"Username-Password-Authentication"`)
}

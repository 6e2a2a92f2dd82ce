package emulator

import (
	"path/filepath"
	"testing"
)

// The tenant settings: default_audience is checked and kept, other
// settings are kept as sent; PATCH merges, null removes; the routes need
// their scopes.
func TestTenantSettings(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	h.expect(h.call(tok, "GET", "/api/v2/tenants/settings", nil), 200, `{}`)
	h.expect(h.call(tok, "PATCH", "/api/v2/tenants/settings", `{"default_audience":42}`), 400, "default_audience")
	h.expect(h.call(tok, "PATCH", "/api/v2/tenants/settings", `{"default_audience":"https://api.example.com/","friendly_name":"Acme","flags":{"enable_client_connections":false}}`), 200,
		`"default_audience":"https://api.example.com/"`, `"friendly_name":"Acme"`, `"flags":{"enable_client_connections":false}`)
	h.expect(h.call(tok, "PATCH", "/api/v2/tenants/settings", `{"friendly_name":null,"support_email":"help@example.com"}`), 200)
	r := h.call(tok, "GET", "/api/v2/tenants/settings", nil)
	m := r.json(t)
	if m["default_audience"] != "https://api.example.com/" || m["support_email"] != "help@example.com" || m["friendly_name"] != nil || m["flags"] == nil {
		t.Fatalf("settings %s", r.body)
	}
	h.s.AddClient(Client{ID: "reader", Secret: "reader-secret", Scopes: []string{"read:tenant_settings"}})
	reader := h.tokenFor("reader", "reader-secret")
	h.expect(h.call(reader, "GET", "/api/v2/tenants/settings", nil), 200)
	h.expect(h.call(reader, "PATCH", "/api/v2/tenants/settings", `{"friendly_name":"x"}`), 403, "update:tenant_settings")
}

// Without an audience the exchange is for the tenant's default audience;
// with none set it fails as before.
func TestExchange_defaultAudience(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	status, out := x.exchange("d1", "audience", "")
	if status != 403 || out["error"] != "access_denied" {
		t.Fatalf("no default audience: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "PATCH", "/api/v2/tenants/settings", `{"default_audience":"`+ordersAPI+`"}`), 200)
	status, out = x.exchange("d1", "audience", "")
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if at := x.verify(out["access_token"].(string)); at["aud"] != ordersAPI || at["scope"] != "read:orders" {
		t.Fatalf("access token %v", at)
	}
}

// requested_token_type: refused as a tenant was observed refusing it, or
// with --assume requested_token_type=accept passed to the action.
func TestExchange_requestedTokenType(t *testing.T) {
	const idType = "urn:ietf:params:oauth:token-type:id_token"
	code := `api.user.setAppMetadata("requested", event.transaction.requested_token_type);
  ` + createLegacy
	x := newExchangeTenant(t, Options{}, code, "", "")
	status, out := x.exchange("q1", "requested_token_type", "urn:ietf:params:oauth:token-type:access_token")
	if status != 400 || out["error"] != "invalid_request" || out["error_description"] != "Invalid subject_token_type and requested_token_type combination." {
		t.Fatalf("%d %v", status, out)
	}
	if x.user("auth0|q1") != nil {
		t.Fatal("the action ran")
	}
	x = newExchangeTenant(t, Options{Assume: Assumptions{RequestedTokenType: "accept"}}, code, "", "")
	if status, out := x.exchange("q1", "requested_token_type", idType); status != 200 {
		t.Fatalf("accept: %d %v", status, out)
	}
	if u := x.user("auth0|q1"); u == nil || string(u.AppMetadata) != `{"requested":"`+idType+`"}` {
		t.Fatalf("the action saw %+v", u)
	}
}

// The tenant settings and Suspicious IP Throttling survive a restart with a
// state file, and a reset returns to the starting ones.
func TestTenantSettings_keptAndReset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tenant.json")
	h := start(t, Options{StateFile: path})
	tok := h.admin()
	h.expect(h.call(tok, "PATCH", "/api/v2/tenants/settings", `{"default_audience":"https://kept/"}`), 200)
	h.expect(h.call(tok, "PATCH", ipThrottling, `{"allowlist":["192.0.2.0/24"]}`), 200)
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	h = start(t, Options{StateFile: path})
	tok = h.admin()
	h.expect(h.call(tok, "GET", "/api/v2/tenants/settings", nil), 200, `"default_audience":"https://kept/"`)
	h.expect(h.call(tok, "GET", ipThrottling, nil), 200, `"allowlist":["192.0.2.0/24"]`)
	h.expect(h.call(tok, "PATCH", ipThrottling, `{"enabled":false}`), 200)
	h.s.Reset()
	h.expect(h.call(tok, "GET", ipThrottling, nil), 200, `"enabled":true`, `"allowlist":["192.0.2.0/24"]`)
}

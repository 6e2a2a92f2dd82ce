package emulator

import (
	"testing"
)

// The organization parameter (id or name) and setOrganization put the
// organization in the exchange, org_id in the tokens and
// event.organization in the action (token-exchange-flow.md §5).
func TestExchange_organizations(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  const [id, org] = event.transaction.subject_token.split("@@");
  if (org) api.authentication.setOrganization(org);
  api.authentication.setUserByConnection("Username-Password-Authentication", { user_id: id, email: id + "@example.com" },
    { creationBehavior: "create_if_not_exists", updateBehavior: "none" });
  api.user.setAppMetadata("seen_org", event.organization ? event.organization.name + "/" + event.organization.display_name : null);`, "", "")
	r := x.call(x.tok, "POST", "/api/v2/organizations", `{"name":"acme","display_name":"Acme Inc"}`)
	x.expect(r, 201)
	acme := r.json(t)["id"].(string)
	orgOf := func(subject string, more ...string) (string, map[string]any) {
		t.Helper()
		status, out := x.exchange(subject, append([]string{"scope", "openid read:orders"}, more...)...)
		if status != 200 {
			t.Fatalf("%s %v: %d %v", subject, more, status, out)
		}
		at, id := x.verify(out["access_token"].(string)), x.verify(out["id_token"].(string))
		if at["org_id"] != id["org_id"] {
			t.Fatalf("org_id %v in the access token, %v in the ID token", at["org_id"], id["org_id"])
		}
		org, _ := at["org_id"].(string)
		return org, at
	}
	if org, at := orgOf("ann"); org != "" || at["org_name"] != nil {
		t.Fatalf("without an organization: %v", at)
	}
	// Not a member yet: refused, and nothing kept.
	if status, out := x.exchange("ann", "organization", "acme"); status != 403 || out["error"] != "access_denied" {
		t.Fatalf("a user outside the organization: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "POST", "/api/v2/organizations/"+acme+"/members", `{"members":["auth0|ann"]}`), 204)
	for _, param := range []string{"acme", acme} {
		if org, _ := orgOf("ann", "organization", param); org != acme {
			t.Fatalf("organization=%s: org_id %q, want %s", param, org, acme)
		}
	}
	if u := x.user("auth0|ann"); string(u.AppMetadata) != `{"seen_org":"acme/Acme Inc"}` {
		t.Fatalf("event.organization as the action saw it: %s", u.AppMetadata)
	}
	if status, out := x.exchange("ann", "organization", "globex"); status != 400 || out["error"] != "invalid_request" {
		t.Fatalf("an organization that does not exist: %d %v", status, out)
	}
	// setOrganization, by name or id.
	if org, _ := orgOf("ann@@acme"); org != acme {
		t.Fatalf("setOrganization by name: %q", org)
	}
	if org, _ := orgOf("ann@@" + acme); org != acme {
		t.Fatalf("setOrganization by id: %q", org)
	}
	if status, out := x.exchange("ann@@globex"); status != 400 || out["error"] != "invalid_request" {
		t.Fatalf("setOrganization of no organization: %d %v", status, out)
	}
	// A connection enabled for the organization with
	// assign_membership_on_login makes its users members.
	if status, out := x.exchange("bob@@acme"); status != 403 {
		t.Fatalf("bob outside the organization: %d %v", status, out)
	}
	conns := x.call(x.tok, "GET", "/api/v2/connections?name=Username-Password-Authentication", nil).body
	db := conns[len(`[{"id":"`) : len(`[{"id":"`)+len("con_")+16]
	x.expect(x.call(x.tok, "POST", "/api/v2/organizations/"+acme+"/enabled_connections", `{"connection_id":"`+db+`","assign_membership_on_login":true}`), 201)
	if org, _ := orgOf("bob@@acme"); org != acme {
		t.Fatalf("bob through the connection: %q", org)
	}
	x.expect(x.call(x.tok, "GET", "/api/v2/organizations/"+acme+"/members", nil), 200, `"user_id":"auth0|bob"`)
}

// The post-login actions see the user's connection and the exchange's
// organization.
func TestExchange_postLoginSeesConnectionAndOrganization(t *testing.T) {
	x := newExchangeTenant(t, Options{}, byConnection+`
  api.authentication.setOrganization("acme");`, "", "")
	x.expect(x.call(x.tok, "POST", "/api/v2/connections", `{"name":"corp-oidc","strategy":"oidc","enabled_clients":["`+x.client+`"]}`), 201)
	r := x.call(x.tok, "POST", "/api/v2/organizations", `{"name":"acme"}`)
	x.expect(r, 201)
	acme := r.json(t)["id"].(string)
	x.expect(x.call(x.tok, "POST", "/api/v2/organizations/"+acme+"/members", `{"members":["auth0|cy"]}`), 404) // not a user yet
	pl := x.deployPostLogin("where", `
  api.accessToken.setCustomClaim("https://example.com/where", event.connection.name + "/" + event.connection.strategy + "/" + (event.organization ? event.organization.id : "none"));`)
	x.bindPostLogin(pl)
	conns := x.call(x.tok, "GET", "/api/v2/connections?name=corp-oidc", nil).body
	oidc := conns[len(`[{"id":"`) : len(`[{"id":"`)+len("con_")+16]
	x.expect(x.call(x.tok, "POST", "/api/v2/organizations/"+acme+"/enabled_connections", `{"connection_id":"`+oidc+`","assign_membership_on_login":true}`), 201)
	status, out := x.exchange("corp-oidc:cy")
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if at := x.verify(out["access_token"].(string)); at["https://example.com/where"] != "corp-oidc/oidc/"+acme || at["sub"] != "oidc|corp-oidc|cy" {
		t.Fatalf("claims %v", at)
	}
}

package emulator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
)

// byConnection sets the user "<connection>:<id>" of the subject token in
// that connection, creating it with <id>@example.com.
const byConnection = `
  const [connection, id] = event.transaction.subject_token.split(":");
  api.authentication.setUserByConnection(connection, { user_id: id, email: id + "@example.com" },
    { creationBehavior: "create_if_not_exists", updateBehavior: "none" });`

// setUserByConnection takes a connection made through /connections only
// when it is enabled for the exchanging client and of a supported strategy
// (token-exchange-flow.md §5); the refusal names no connection, the log
// does; users of other connections are created and found there, each
// exchange counting a login.
func TestExchange_connections(t *testing.T) {
	var log emutest.Log
	x := newExchangeTenant(t, Options{Log: &log}, byConnection, "", "")
	refused := func(subject string) {
		t.Helper()
		status, out := x.exchange(subject)
		if status != 500 || out["error"] != "server_error" || out["access_token"] != nil {
			t.Fatalf("%s: %d %v", subject, status, out)
		}
		if d := fmt.Sprint(out["error_description"]); strings.Contains(d, "corp") || strings.Contains(d, x.client) {
			t.Fatalf("%s: the description names the connection or the client: %q", subject, d)
		}
	}
	accepted := func(subject, sub string) {
		t.Helper()
		status, out := x.exchange(subject)
		if status != 200 {
			t.Fatalf("%s: %d %v", subject, status, out)
		}
		if at := x.verify(out["access_token"].(string)); at["sub"] != sub {
			t.Fatalf("%s: sub %v, want %s", subject, at["sub"], sub)
		}
	}

	// The default database connection is enabled for the client, as for
	// every new client.
	accepted("Username-Password-Authentication:ada", "auth0|ada")

	// A connection made after the client is not enabled for it.
	r := x.call(x.tok, "POST", "/api/v2/connections", `{"name":"corp-saml","strategy":"samlp","options":{"signInEndpoint":"https://idp.example.com/sso"}}`)
	x.expect(r, 201)
	saml := r.json(t)["id"].(string)
	refused("corp-saml:ada")
	if !strings.Contains(log.String(), "the connection corp-saml is not enabled for the client "+x.client) {
		t.Fatalf("log %q lacks the connection and the client", log.String())
	}
	if x.user("samlp|corp-saml|ada") != nil {
		t.Fatal("a refused exchange made the user")
	}
	x.expect(x.call(x.tok, "PATCH", "/api/v2/connections/"+saml+"/clients", `[{"client_id":"`+x.client+`","status":true}]`), 204)
	accepted("corp-saml:ada", "samlp|corp-saml|ada")
	accepted("corp-saml:ada", "samlp|corp-saml|ada")
	r = x.call(x.tok, "GET", "/api/v2/users/samlp%7Ccorp-saml%7Cada", nil)
	x.expect(r, 200, `"identities":[{"connection":"corp-saml","user_id":"ada","provider":"samlp","isSocial":false}]`, `"logins_count":2`, `"email":"ada@example.com"`)
	if u := x.user("auth0|ada"); u == nil || u.LoginsCount != 1 {
		t.Fatalf("the database user of the same id: %+v", u)
	}

	// A social connection enabled for the client when it is made.
	x.expect(x.call(x.tok, "POST", "/api/v2/connections", `{"name":"google-oauth2","strategy":"google-oauth2","enabled_clients":["`+x.client+`"]}`), 201)
	accepted("google-oauth2:g1", "google-oauth2|g1")
	x.expect(x.call(x.tok, "GET", "/api/v2/users/google-oauth2%7Cg1", nil), 200, `"provider":"google-oauth2","isSocial":true`)

	// A client made after the connections is enabled for every one of
	// them (enable_client_connections).
	x.client, x.secret = x.newClient(`{"name":"second","app_type":"regular_web","is_first_party":true,"oidc_conformant":true,
		"token_exchange":{"allow_any_profile_of_type":["custom_authentication"]}}`)
	accepted("corp-saml:bo", "samlp|corp-saml|bo")

	// Strategies the exchange does not take: passwordless, and a custom
	// database in import mode.
	x.expect(x.call(x.tok, "POST", "/api/v2/connections", `{"name":"corp-email","strategy":"email","enabled_clients":["`+x.client+`"]}`), 201)
	x.expect(x.call(x.tok, "POST", "/api/v2/connections", `{"name":"corp-legacy","strategy":"auth0","options":{"enabledDatabaseCustomization":true,"import_mode":true},"enabled_clients":["`+x.client+`"]}`), 201)
	refused("corp-email:e1")
	refused("corp-legacy:l1")
	x.expect(x.call(x.tok, "PATCH", "/api/v2/connections/"+saml, `{"options":{}}`), 200)
	accepted("corp-saml:bo", "samlp|corp-saml|bo")

	// Disabled again: refused.
	x.expect(x.call(x.tok, "PATCH", "/api/v2/connections/"+saml+"/clients", `[{"client_id":"`+x.client+`","status":false}]`), 204)
	refused("corp-saml:bo")
}

// A user blocked through PATCH /users/{id} fails the exchange whichever
// setUser call names it, and exchanges again once unblocked (§5: blocked
// users always fail).
func TestExchange_blockedThroughTheAPI(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  if (event.transaction.subject_token === "by-id") { api.authentication.setUserById("auth0|legacy-9"); return; }
  `+createLegacy, "", "")
	if status, out := x.exchange("legacy-9"); status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	path := "/api/v2/users/auth0%7Clegacy-9"
	x.expect(x.call(x.tok, "PATCH", path, `{"blocked":true}`), 200, `"blocked":true`)
	for _, subject := range []string{"legacy-9", "by-id"} {
		if status, out := x.exchange(subject); status != 401 || out["error"] != "unauthorized" || out["access_token"] != nil {
			t.Fatalf("%s: %d %v", subject, status, out)
		}
	}
	if u := x.user("auth0|legacy-9"); u.LoginsCount != 1 {
		t.Fatalf("a refused exchange counted a login: %d", u.LoginsCount)
	}
	x.expect(x.call(x.tok, "PATCH", path, `{"blocked":false}`), 200, `"blocked":false`)
	if status, out := x.exchange("by-id"); status != 200 {
		t.Fatalf("unblocked: %d %v", status, out)
	}
}

package emulator

import (
	"fmt"
	"net/url"
	"testing"
)

const agentType = "urn:acme:support-agent"

// A support agent acts on behalf of a user: the actor token and its type
// reach the action, setActor puts the act claim in the access and ID
// tokens, and the answer holds no refresh token.
func TestExchange_delegation(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  const tx = event.transaction;
  if (tx.actor_token) {
    api.authentication.setActor({ sub: tx.actor_token_type + "|" + tx.actor_token, act: { sub: "console" } });
  }
  `+createLegacy, "", "")
	status, out := x.exchange("user-1", "scope", "openid read:orders", "actor_token", "agent-7", "actor_token_type", agentType)
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	want := fmt.Sprint(map[string]any{"sub": agentType + "|agent-7", "act": map[string]any{"sub": "console"}})
	if at := x.verify(out["access_token"].(string)); fmt.Sprint(at["act"]) != want || at["sub"] != "auth0|user-1" {
		t.Fatalf("access token %v", at)
	}
	if id := x.verify(out["id_token"].(string)); fmt.Sprint(id["act"]) != want {
		t.Fatalf("ID token %v", id)
	}
	if _, ok := out["refresh_token"]; ok {
		t.Fatalf("a refresh token with an actor: %v", out)
	}
	// Without an actor token the action sets no actor: no act claim.
	status, out = x.exchange("user-1")
	if at := x.verify(out["access_token"].(string)); status != 200 || at["act"] != nil {
		t.Fatalf("%d %v", status, at)
	}
	// RFC 8693 §2.1: actor_token_type comes with actor_token, and only with it.
	for _, more := range [][]string{{"actor_token", "agent-7"}, {"actor_token_type", agentType}} {
		if status, out := x.exchange("user-1", more...); status != 400 || out["error"] != "invalid_request" {
			t.Fatalf("%v: %d %v", more, status, out)
		}
	}
}

// setActor's argument: a string is the actor's sub; an object needs a sub;
// a chain deeper than 5 is an error of the action.
func TestExchange_setActorArguments(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  const a = JSON.parse(event.request.body.actor);
  api.authentication.setActor(a);
  `+createLegacy, "", "")
	chain := func(n int) string {
		s := `{"sub":"a0"}`
		for i := 1; i < n; i++ {
			s = fmt.Sprintf(`{"sub":"a%d","act":%s}`, i, s)
		}
		return s
	}
	status, out := x.exchange("u2", "actor", `"agent-9"`)
	if at := x.verify(out["access_token"].(string)); status != 200 || fmt.Sprint(at["act"]) != "map[sub:agent-9]" {
		t.Fatalf("%d %v", status, out)
	}
	if status, out := x.exchange("u2", "actor", chain(5)); status != 200 {
		t.Fatalf("a chain of 5: %d %v", status, out)
	}
	for _, bad := range []string{chain(6), `{"name":"no sub"}`, `42`, `""`} {
		if status, out := x.exchange("u2", "actor", bad); status != 500 || out["error"] != "server_error" {
			t.Fatalf("%s: %d %v", bad, status, out)
		}
	}
}

// An API that does not let first-party clients skip consent (the default
// of one created through the Management API) refuses the exchange with
// consent_required, before the action runs: no user is made.
func TestExchange_consentRequired(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI), `{"skip_consent_for_verifiable_first_party_clients":false}`), 200)
	status, out := x.exchange("c1")
	if status != 400 || out["error"] != "invalid_request" || out["error_description"] != "consent_required" {
		t.Fatalf("%d %v", status, out)
	}
	if u := x.user("auth0|c1"); u != nil {
		t.Fatalf("the action ran: %+v", u)
	}
	x.expect(x.call(x.tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/fresh"}`), 201)
	if status, out := x.exchange("c1", "audience", "https://api.example.com/fresh", "scope", ""); status != 400 || out["error_description"] != "consent_required" {
		t.Fatalf("a new API: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI), `{"skip_consent_for_verifiable_first_party_clients":true}`), 200)
	if status, out := x.exchange("c1"); status != 200 {
		t.Fatalf("consent skipped: %d %v", status, out)
	}
}

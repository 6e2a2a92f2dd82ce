package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// refresh posts grant_type=refresh_token for the exchange tenant's client.
func (x *exchangeTenant) refresh(token string) (int, map[string]any) {
	x.t.Helper()
	resp, err := http.PostForm(x.s.Domain()+"/oauth/token", url.Values{
		"grant_type": {"refresh_token"}, "client_id": {x.client}, "client_secret": {x.secret}, "refresh_token": {token},
	})
	if err != nil {
		x.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// offline_access, for an API that allows offline access, gives a refresh
// token; the client refreshes with it, and a non-rotating client's token
// stays. An API without offline access, or an actor, gives none.
func TestExchange_refreshTokens(t *testing.T) {
	x := newExchangeTenant(t, Options{}, `
  if (event.request.body.agent) api.authentication.setActor(event.request.body.agent);
  `+createLegacy, "", "")
	status, out := x.exchange("r1", "scope", "openid offline_access read:orders")
	if status != 200 || out["refresh_token"] != nil || strings.Contains(out["scope"].(string), "offline_access") {
		t.Fatalf("an API without offline access: %d %v", status, out)
	}
	x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI), `{"allow_offline_access":true}`), 200)
	status, out = x.exchange("r1", "scope", "openid offline_access read:orders")
	rt, _ := out["refresh_token"].(string)
	if status != 200 || rt == "" || out["scope"] != "openid offline_access read:orders" {
		t.Fatalf("%d %v", status, out)
	}
	for range 2 {
		status, out = x.refresh(rt)
		if status != 200 || out["refresh_token"] != nil || out["scope"] != "openid offline_access read:orders" || out["id_token"] == nil {
			t.Fatalf("refresh: %d %v", status, out)
		}
		if at := x.verify(out["access_token"].(string)); at["sub"] != "auth0|r1" || at["azp"] != x.client {
			t.Fatalf("refreshed access token %v", at)
		}
	}
	if status, out := x.refresh("not-a-refresh-token"); status != 403 || out["error"] != "invalid_grant" {
		t.Fatalf("unknown token: %d %v", status, out)
	}
	// With an actor: no refresh token, and offline_access is not granted.
	status, out = x.exchange("r1", "scope", "offline_access read:orders", "agent", "agent-1")
	if status != 200 || out["refresh_token"] != nil || out["scope"] != "read:orders" {
		t.Fatalf("with an actor: %d %v", status, out)
	}
	// A rotating client: each refresh gives a new token and retires the old.
	x.expect(x.call(x.tok, "PATCH", "/api/v2/clients/"+x.client, `{"refresh_token":{"rotation_type":"rotating","expiration_type":"expiring","leeway":0,
		"token_lifetime":3600,"idle_token_lifetime":1800,"infinite_token_lifetime":false,"infinite_idle_token_lifetime":false}}`), 200)
	_, out = x.exchange("r1", "scope", "offline_access read:orders")
	first := out["refresh_token"].(string)
	status, out = x.refresh(first)
	second, _ := out["refresh_token"].(string)
	if status != 200 || second == "" || second == first {
		t.Fatalf("rotation: %d %v", status, out)
	}
	if status, _ := x.refresh(first); status != 403 {
		t.Fatalf("the retired token: %d", status)
	}
	if status, _ := x.refresh(second); status != 403 {
		t.Fatalf("the family after a reuse: %d", status)
	}
}

// A refresh of an exchange for an organization carries its org_id; once
// the organization is deleted, its refresh tokens are refused.
func TestExchange_refreshKeepsOrganization(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI), `{"allow_offline_access":true}`), 200)
	if status, out := x.exchange("o1"); status != 200 {
		t.Fatalf("the user's first exchange: %d %v", status, out)
	}
	r := x.call(x.tok, "POST", "/api/v2/organizations", `{"name":"acme"}`)
	x.expect(r, 201)
	acme := r.json(t)["id"].(string)
	x.expect(x.call(x.tok, "POST", "/api/v2/organizations/"+acme+"/members", `{"members":["auth0|o1"]}`), 204)
	status, out := x.exchange("o1", "scope", "openid offline_access read:orders", "organization", "acme")
	rt, _ := out["refresh_token"].(string)
	if status != 200 || rt == "" {
		t.Fatalf("the exchange for the organization: %d %v", status, out)
	}
	status, out = x.refresh(rt)
	if status != 200 {
		t.Fatalf("refresh: %d %v", status, out)
	}
	if at, id := x.verify(out["access_token"].(string)), x.verify(out["id_token"].(string)); at["org_id"] != acme || id["org_id"] != acme {
		t.Fatalf("the refreshed tokens' org_id: access %v, ID %v; want %s", at["org_id"], id["org_id"], acme)
	}
	x.expect(x.call(x.tok, "DELETE", "/api/v2/organizations/"+acme, nil), 204)
	if status, out := x.refresh(rt); status != 403 || out["error"] != "invalid_grant" {
		t.Fatalf("a refresh after the organization's deletion: %d %v", status, out)
	}
}

// A client whose grant_types does not list refresh_token gets no refresh
// token and cannot refresh (the emulator's assumption); with
// --assume refresh_grant_type=accept it does both.
func TestExchange_refreshNeedsGrantType(t *testing.T) {
	for _, answer := range []string{"refuse", "accept"} {
		t.Run(answer, func(t *testing.T) {
			x := newExchangeTenant(t, Options{Assume: tenant.Assumptions{RefreshGrantType: answer}}, createLegacy, "", "")
			x.expect(x.call(x.tok, "PATCH", "/api/v2/resource-servers/"+url.PathEscape(ordersAPI), `{"allow_offline_access":true}`), 200)
			_, out := x.exchange("g1", "scope", "offline_access read:orders")
			rt, _ := out["refresh_token"].(string)
			if rt == "" {
				t.Fatalf("the default grant types: no refresh token: %v", out)
			}
			x.expect(x.call(x.tok, "PATCH", "/api/v2/clients/"+x.client, `{"grant_types":["urn:ietf:params:oauth:grant-type:token-exchange"]}`), 200)
			status, out := x.exchange("g1", "scope", "offline_access read:orders")
			refreshStatus, refreshOut := x.refresh(rt)
			if answer == "refuse" {
				if status != 200 || out["refresh_token"] != nil || out["scope"] != "read:orders" {
					t.Fatalf("without refresh_token in grant_types: %d %v", status, out)
				}
				if refreshStatus != 403 || refreshOut["error"] != "unauthorized_client" {
					t.Fatalf("a refresh without refresh_token in grant_types: %d %v", refreshStatus, refreshOut)
				}
				return
			}
			if status != 200 || out["refresh_token"] == nil || refreshStatus != 200 {
				t.Fatalf("accept: exchange %d %v, refresh %d %v", status, out, refreshStatus, refreshOut)
			}
		})
	}
}

package emulator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/internal/emutest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/oauth"
)

// deployPostLogin creates and deploys a post-login action whose
// onExecutePostLogin has body, waits until it is deployed, and returns its id.
func (x *exchangeTenant) deployPostLogin(name, body string) string {
	x.t.Helper()
	code, _ := json.Marshal("exports.onExecutePostLogin = async (event, api) => {\n" + body + "\n};")
	r := x.call(x.tok, "POST", actionsPath, `{"name":`+fmt.Sprintf("%q", name)+`,"supported_triggers":[{"id":"post-login","version":"v3"}],
		"code":`+string(code)+`,"secrets":[{"name":"KEY","value":"`+name+`-secret"}],"deploy":true}`)
	x.expect(r, 201)
	id := r.json(x.t)["id"].(string)
	x.pollFor(x.tok, id, 2*time.Minute, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
	return id
}

// bindPostLogin makes ids the post-login trigger's bindings, in that order.
func (x *exchangeTenant) bindPostLogin(ids ...string) {
	x.t.Helper()
	items := make([]string, len(ids))
	for i, id := range ids {
		items[i] = fmt.Sprintf(`{"ref":{"type":"action_id","value":%q}}`, id)
	}
	x.expect(x.call(x.tok, "PATCH", "/api/v2/actions/triggers/post-login/bindings", `{"bindings":[`+strings.Join(items, ",")+`]}`), 200)
}

// The post-login actions bound to the trigger run after the exchange's
// action, in order, with the exchange's protocol: their custom claims are
// in the tokens, their metadata stored with the user.
func TestExchange_postLoginActionsRun(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy+`
  api.user.setAppMetadata("from_exchange", true);`, "", "")
	first := x.deployPostLogin("first", `
  api.accessToken.setCustomClaim("https://example.com/protocol", event.transaction.protocol);
  api.accessToken.setCustomClaim("https://example.com/order", ["first"]);
  api.accessToken.setCustomClaim("sub", "forged");
  api.idToken.setCustomClaim("https://example.com/secret", event.secrets.KEY);
  api.user.setAppMetadata("seen_by_post_login", event.user.app_metadata.from_exchange === true);
  api.user.setUserMetadata("client", event.client.client_id);`)
	second := x.deployPostLogin("second", `
  api.accessToken.setCustomClaim("https://example.com/order", ["first", "second"]);
  api.accessToken.setCustomClaim("https://example.com/user", event.user.user_id + " " + event.user.email + " " + event.resource_server.identifier);`)
	x.bindPostLogin(first, second)

	status, out := x.exchange("pl-1", "scope", "openid read:orders")
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	at := x.verify(out["access_token"].(string))
	if at["https://example.com/protocol"] != "oauth2-token-exchange" || fmt.Sprint(at["https://example.com/order"]) != "[first second]" ||
		at["https://example.com/user"] != "auth0|pl-1 pl-1@example.com "+ordersAPI || at["sub"] != "auth0|pl-1" {
		t.Fatalf("access token claims %v", at)
	}
	if id := x.verify(out["id_token"].(string)); id["https://example.com/secret"] != "first-secret" || at["https://example.com/secret"] != nil {
		t.Fatalf("ID token claims %v", id)
	}
	u := x.user("auth0|pl-1")
	if string(u.AppMetadata) != `{"from_exchange":true,"seen_by_post_login":true}` || string(u.UserMetadata) != `{"client":"`+x.client+`"}` {
		t.Fatalf("user %s %s", u.AppMetadata, u.UserMetadata)
	}
}

// A post-login deny makes the exchange fail, and the actions after it do
// not run; an action that throws fails it as the exchange's action does.
func TestExchange_postLoginDenyAndFailure(t *testing.T) {
	log := &emutest.Log{}
	x := newExchangeTenant(t, Options{Log: log}, createLegacy, "", "")
	deny := x.deployPostLogin("deny", `
  if (event.user.user_id === "auth0|denied") api.access.deny("Orders are closed for this account.");
  api.user.setAppMetadata("denier_ran", true);`)
	throws := x.deployPostLogin("throws", `
  if (event.user.user_id === "auth0|throw") throw new Error("post-login detail");
  console.log("after deny ran for", event.user.user_id);`)
	x.bindPostLogin(deny, throws)

	status, out := x.exchange("denied")
	if status != 403 || out["error"] != "access_denied" || out["error_description"] != "Orders are closed for this account." || out["access_token"] != nil {
		t.Fatalf("deny: %d %v", status, out)
	}
	if u := x.user("auth0|denied"); u != nil {
		t.Fatalf("a denied exchange stored the user %+v", u)
	}
	status, out = x.exchange("throw")
	if status != 500 || out["error"] != "server_error" || out["error_description"] != oauth.PostLoginFailed {
		t.Fatalf("throw: %d %v", status, out)
	}
	if status, out := x.exchange("fine"); status != 200 {
		t.Fatalf("fine: %d %v", status, out)
	}
	waitFor(t, func() bool {
		l := log.String()
		return strings.Contains(l, "threw Error: post-login detail") && strings.Contains(l, "after deny ran for auth0|fine")
	}, "the post-login actions' output: "+log.String())
	if strings.Contains(log.String(), "after deny ran for auth0|denied") {
		t.Fatal("an action after the deny ran")
	}
}

// Only bound, deployed post-login actions run: not an unbound one, not a
// draft saved after the deploy, not an action of another trigger.
func TestExchange_postLoginOnlyBoundDeployedActions(t *testing.T) {
	x := newExchangeTenant(t, Options{}, createLegacy, "", "")
	unbound := x.deployPostLogin("unbound", `api.access.deny("the unbound action ran");`)
	bound := x.deployPostLogin("bound", `api.accessToken.setCustomClaim("https://example.com/v", 1);`)
	x.bindPostLogin(bound)
	code, _ := json.Marshal(`exports.onExecutePostLogin = async (event, api) => { api.access.deny("the draft ran"); };`)
	x.expect(x.call(x.tok, "PATCH", actionsPath+"/"+bound, `{"code":`+string(code)+`}`), 200)
	x.poll(x.tok, bound, statusIs(t, "built"))
	_ = unbound

	status, out := x.exchange("b1")
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if at := x.verify(out["access_token"].(string)); at["https://example.com/v"] != 1.0 {
		t.Fatalf("the bound action's deployed version did not run: %v", at)
	}
	// Unbound, nothing runs after the exchange.
	x.expect(x.call(x.tok, "PATCH", "/api/v2/actions/triggers/post-login/bindings", `{"bindings":[]}`), 200)
	status, out = x.exchange("b2")
	if at := x.verify(out["access_token"].(string)); status != 200 || at["https://example.com/v"] != nil {
		t.Fatalf("after unbinding: %d %v", status, at)
	}
}

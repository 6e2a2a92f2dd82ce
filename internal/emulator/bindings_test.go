package emulator

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

const bindingsPath = "/api/v2/actions/triggers/post-login/bindings"

// bound returns the action ids and display names of a bindings answer, in order.
func bound(t *testing.T, r reply) string {
	t.Helper()
	var out struct {
		Bindings []struct {
			DisplayName string `json:"display_name"`
			Action      struct {
				ID string `json:"id"`
			} `json:"action"`
		} `json:"bindings"`
	}
	if err := json.Unmarshal([]byte(r.body), &out); err != nil {
		t.Fatalf("not a bindings answer: %s", r.body)
	}
	var parts []string
	for _, b := range out.Bindings {
		parts = append(parts, b.Action.ID+"="+b.DisplayName)
	}
	return strings.Join(parts, ",")
}

func refs(ids ...string) string {
	var items []string
	for _, id := range ids {
		items = append(items, fmt.Sprintf(`{"ref":{"type":"action_id","value":%q},"display_name":"n-%s"}`, id, id[:4]))
	}
	return `{"bindings":[` + strings.Join(items, ",") + `]}`
}

// TestBindings_orderAndShape: a PATCH replaces the whole list and answers
// it, in the order sent; GET pages it; the shapes are the recorded ones.
func TestBindings_orderAndShape(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	a, b := h.action(tok, "post-login", true), h.action(tok, "post-login", true)

	h.expect(h.call(tok, "GET", bindingsPath+"?page=0&per_page=100", nil), 200)
	if r := h.call(tok, "GET", bindingsPath+"?page=0&per_page=100", nil); r.body != `{"bindings":[],"per_page":100}`+"\n" {
		t.Fatalf("empty list %s", r.body)
	}
	r := h.call(tok, "PATCH", bindingsPath, refs(a, b))
	h.expect(r, 200)
	if got, want := bound(t, r), a+"=n-"+a[:4]+","+b+"=n-"+b[:4]; got != want {
		t.Fatalf("PATCH answered %s, want %s", got, want)
	}
	// The recorded key orders of a binding and of its action.
	shape := regexp.MustCompile(`^\{"bindings":\[\{"id":"[0-9a-f-]{36}","trigger_id":"post-login","action":\{"id":"` + a + `","name":"a","supported_triggers":\[[^]]*\],` +
		`"created_at":"[^"]+","updated_at":"[^"]+","current_version":\{"id":"[^"]+","code":"x","runtime":"node22","status":"BUILT","number":1,` +
		`"build_time":"[^"]+","created_at":"[^"]+","updated_at":"[^"]+"\},"deployed_version":\{"code":"x","dependencies":\[\],"id":"[^"]+","deployed":true,` +
		`"number":1,"built_at":"[^"]+","secrets":\[\],"status":"built","created_at":"[^"]+","updated_at":"[^"]+","runtime":"node22",` +
		`"supported_triggers":\[[^]]*\]\},"all_changes_deployed":true\},"created_at":"[^"]+","updated_at":"[^"]+","display_name":"n-[0-9a-f]{4}"\},`)
	if !shape.MatchString(r.body) {
		t.Fatalf("PATCH answer %s", r.body)
	}
	ids := map[string]string{}
	var first struct {
		Bindings []struct {
			ID     string `json:"id"`
			Action struct {
				ID string `json:"id"`
			} `json:"action"`
		} `json:"bindings"`
	}
	_ = json.Unmarshal([]byte(r.body), &first)
	for _, x := range first.Bindings {
		ids[x.Action.ID] = x.ID
	}

	r = h.call(tok, "GET", bindingsPath, nil)
	h.expect(r, 200, `"total":2,"per_page":20}`)
	if got := bound(t, r); got != a+"=n-"+a[:4]+","+b+"=n-"+b[:4] {
		t.Fatalf("GET %s", got)
	}
	h.expect(h.call(tok, "GET", bindingsPath+"?page=1&per_page=1", nil), 200, `"page":1,"total":2,"per_page":1}`, `"id":"`+ids[b]+`"`)
	// The recorded answers of the pages of 100 a reader asks for.
	h.expect(h.call(tok, "GET", bindingsPath+"?page=0&per_page=100", nil), 200, `],"total":2,"per_page":100}`)
	if r := h.call(tok, "GET", bindingsPath+"?page=1&per_page=100", nil); r.body != `{"bindings":[],"page":1,"per_page":100}`+"\n" {
		t.Fatalf("the page after the last: %s", r.body)
	}

	// A reorder keeps each binding's id.
	r = h.call(tok, "PATCH", bindingsPath, refs(b, a))
	h.expect(r, 200, `"id":"`+ids[a]+`"`, `"id":"`+ids[b]+`"`)
	if got := bound(t, r); got != b+"=n-"+b[:4]+","+a+"=n-"+a[:4] {
		t.Fatalf("reordered: %s", got)
	}
	// By name, without a display name: it is the action's name.
	c := h.action(tok, "post-login", true)
	h.call(tok, "PATCH", actionsPath+"/"+c, `{"name":"named"}`)
	h.poll(tok, c, func(r reply) bool { return strings.Contains(r.body, `"status":"built"`) })
	h.expect(h.call(tok, "PATCH", bindingsPath, `{"bindings":[{"ref":{"value":"named"}}]}`), 200, `"display_name":"named"`, `"id":"`+c+`"`)

	// An empty list unbinds everything.
	h.expect(h.call(tok, "PATCH", bindingsPath, `{"bindings":[]}`), 200, `{"bindings":[]}`)
	if r := h.call(tok, "GET", bindingsPath, nil); r.body != `{"bindings":[],"per_page":20}`+"\n" {
		t.Fatalf("after unbinding %s", r.body)
	}
}

func TestBindings_refusals(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	a := h.action(tok, "post-login", true)
	undeployed := h.action(tok, "post-login", false)
	h.poll(tok, undeployed, func(r reply) bool { return strings.Contains(r.body, `"status":"built"`) })
	other := h.action(tok, "credentials-exchange", true)
	exchange := h.action(tok, "custom-token-exchange", true)
	var many []string
	for range 21 {
		many = append(many, h.action(tok, "post-login", true))
	}
	for _, c := range []struct {
		path, body string
		status     int
		want       string
	}{
		{bindingsPath, refs(undeployed), 400, `"message":"action not deployed"`},
		{bindingsPath, refs(other), 400, "does not support the trigger post-login"},
		{bindingsPath, refs(a, a), 400, `Payload validation error: 'Array items are not unique (indexes 0 and 1)' on property bindings.`},
		{bindingsPath, refs("00000000-0000-4000-8000-000000000000"), 404, "That action does not exist."},
		{bindingsPath, `{"bindings":[{"ref":{"type":"action_id","value":"` + a + `"},"x":1}]}`, 400, "Additional properties not allowed: x"},
		{bindingsPath, `{}`, 400, "Missing required property: bindings"},
		{"/api/v2/actions/triggers/custom-token-exchange/bindings", refs(exchange), 400, "entity-bound"},
		{"/api/v2/actions/triggers/no-such-trigger/bindings", refs(a), 400, `Path validation error: 'No enum match for: \"no-such-trigger\"'`},
		{bindingsPath, refs(many[:21]...), 400, `"message":"Payload validation error: 'Array is too long (21), maximum 20' on property bindings.","errorCode":"invalid_body"`},
	} {
		h.expect(h.call(tok, "PATCH", c.path, c.body), c.status, c.want)
	}
	// Nothing was bound by the refusals.
	if r := h.call(tok, "GET", bindingsPath, nil); bound(t, r) != "" {
		t.Fatalf("a refused PATCH bound %s", bound(t, r))
	}
	// Twenty is the limit, not past it.
	if r := h.call(tok, "PATCH", bindingsPath, refs(many[:20]...)); r.status != 200 || strings.Count(bound(t, r), ",") != 19 {
		t.Fatalf("20 bindings: %d %s", r.status, r.body)
	}
}

// TestBindings_missingAction: a list that names an action that does not
// exist is refused with the action's own 404, or a 400 under
// --assume bind_missing_action=invalid; either way nothing is bound.
func TestBindings_missingAction(t *testing.T) {
	for mode, status := range map[string]int{"not_found": 404, "invalid": 400} {
		t.Run(mode, func(t *testing.T) {
			h := start(t, Options{Assume: tenant.Assumptions{BindMissingAction: mode}})
			tok := h.admin()
			a := h.action(tok, "post-login", true)
			h.expect(h.call(tok, "PATCH", bindingsPath, refs(a, "00000000-0000-4000-8000-000000000000")), status, `"message":"That action does not exist."`)
			if r := h.call(tok, "GET", bindingsPath, nil); bound(t, r) != "" {
				t.Fatalf("a refused PATCH bound %s", bound(t, r))
			}
		})
	}
}

// TestBindings_deleteBoundAction: a bound action is not deleted (409)
// until it is unbound or the delete is forced, which unbinds it.
func TestBindings_deleteBoundAction(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	a, b := h.action(tok, "post-login", true), h.action(tok, "post-login", true)
	h.expect(h.call(tok, "PATCH", bindingsPath, refs(a, b)), 200)
	h.expect(h.call(tok, "DELETE", actionsPath+"/"+a, nil), 409, `{"statusCode":409,"error":"Conflict","message":"Unable to delete an action bound to a trigger."}`)
	h.expect(h.call(tok, "DELETE", actionsPath+"/"+a+"?force=true", nil), 204)
	if got := bound(t, h.call(tok, "GET", bindingsPath, nil)); got != b+"=n-"+b[:4] {
		t.Fatalf("after the forced delete: %s", got)
	}
	// Unbound, an action deletes without force.
	h.expect(h.call(tok, "PATCH", bindingsPath, `{"bindings":[]}`), 200)
	h.expect(h.call(tok, "DELETE", actionsPath+"/"+b, nil), 204)
	// A PATCH of an action that stays bound shows its new state there.
	c := h.action(tok, "post-login", true)
	h.expect(h.call(tok, "PATCH", bindingsPath, refs(c)), 200)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+c, `{"code":"y"}`), 200)
	h.expect(h.call(tok, "GET", bindingsPath, nil), 200, `"all_changes_deployed":false`)
}

// TestBindings_history: the history holds every list a trigger held, in
// the order stored, from each PATCH and each delete that unbound an
// action; a refused PATCH or delete adds none, and another trigger's
// lists are its own.
func TestBindings_history(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	a, b := h.action(tok, "post-login", true), h.action(tok, "post-login", true)
	other := h.action(tok, "credentials-exchange", true)
	h.expect(h.call(tok, "PATCH", bindingsPath, refs(a, b)), 200)
	h.expect(h.call(tok, "PATCH", bindingsPath, refs(b, a)), 200)
	h.expect(h.call(tok, "PATCH", bindingsPath, refs(a, a)), 400)
	h.expect(h.call(tok, "DELETE", actionsPath+"/"+a, nil), 409)
	h.expect(h.call(tok, "PATCH", "/api/v2/actions/triggers/credentials-exchange/bindings", refs(other)), 200)
	h.expect(h.call(tok, "DELETE", actionsPath+"/"+a+"?force=true", nil), 204)
	h.expect(h.call(tok, "PATCH", bindingsPath, `{"bindings":[]}`), 200)
	want := fmt.Sprint([][]string{{a, b}, {b, a}, {b}, {}})
	if got := fmt.Sprint(h.s.BindingHistory("post-login")); got != want {
		t.Fatalf("post-login's history %s, want %s", got, want)
	}
	if got := fmt.Sprint(h.s.BindingHistory("credentials-exchange")); got != fmt.Sprint([][]string{{other}}) {
		t.Fatalf("credentials-exchange's history %s", got)
	}
}

// TestBindings_state: the admin state shows each trigger's bindings, and a
// state file keeps them across a restart.
func TestBindings_state(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	h := start(t, Options{StateFile: file})
	tok := h.admin()
	a := h.action(tok, "post-login", true)
	h.expect(h.call(tok, "PATCH", bindingsPath, refs(a)), 200)
	st := h.s.State()
	if len(st.TriggerBindings["post-login"]) != 1 || !strings.Contains(string(st.TriggerBindings["post-login"][0]), `"display_name":"n-`+a[:4]+`"`) {
		t.Fatalf("state %v", st.TriggerBindings)
	}
	h.expect(h.call("", "GET", "/__emulator/state", nil), 200, `"trigger_bindings":{"post-login":[{"id":`)
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	h2 := start(t, Options{StateFile: file})
	if got := bound(t, h2.call(h2.admin(), "GET", bindingsPath, nil)); got != a+"=n-"+a[:4] {
		t.Fatalf("after a restart: %q", got)
	}
}

// TestPhoneProviders_credentials: credentials are kept (never shown); a
// list shows each provider with credentials null, as recorded; a Twilio
// provider needs an auth token.
func TestPhoneProviders_credentials(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	const phone = "/api/v2/branding/phone/providers"
	h.expect(h.call(tok, "POST", phone, `{"name":"twilio","configuration":{"sid":"AC1","default_from":"+1555","delivery_methods":["text"]},"credentials":{}}`), 400, "Bad Operation on Notification Resource")
	h.expect(h.call(tok, "POST", phone, `{"name":"twilio","configuration":{"sid":"AC1","default_from":"+1555","delivery_methods":["text"]},"credentials":{"auth_token":""}}`), 400, "on property credentials.auth_token")
	h.expect(h.call(tok, "POST", phone, `{"name":"twilio","configuration":{"sid":"AC1","default_from":"+1555","delivery_methods":["text"]},"credentials":{"token":"x"}}`), 400, "Additional properties not allowed: token")
	r := h.call(tok, "POST", phone, `{"name":"twilio","configuration":{"sid":"AC1","default_from":"+1555","delivery_methods":["text"]},"credentials":{"auth_token":"first"}}`)
	h.expect(r, 201)
	id := r.json(t)["id"].(string)
	if got := h.s.PhoneCredentials(id); got["auth_token"] != "first" {
		t.Fatalf("credentials %v", got)
	}
	list := h.call(tok, "GET", phone, nil)
	if !regexp.MustCompile(`^\{"providers":\[\{"id":"pro_\w{22}","tenant":"[^"]+","name":"twilio","channel":"phone","disabled":false,"configuration":\{"sid":"AC1","default_from":"\+1555","delivery_methods":\["text"\]\},"credentials":null,"created_at":"[^"]+","updated_at":"[^"]+"\}\]\}`).MatchString(list.body) {
		t.Fatalf("list %s", list.body)
	}
	if strings.Contains(h.call(tok, "GET", phone+"/"+id, nil).body, "credentials") {
		t.Fatal("a single provider shows credentials")
	}
	h.expect(h.call(tok, "GET", phone+"?disabled=false", nil), 200, `"id":"`+id+`"`)
	if r := h.call(tok, "GET", phone+"?disabled=true", nil); r.body != `{"providers":[]}`+"\n" {
		t.Fatalf("the disabled providers: %s", r.body)
	}
	h.expect(h.call(tok, "GET", phone+"?disabled=maybe", nil), 400, "on property disabled")
	// A PATCH without credentials keeps them; with, replaces them.
	h.expect(h.call(tok, "PATCH", phone+"/"+id, `{"disabled":true}`), 200, `"disabled":true`)
	if got := h.s.PhoneCredentials(id); got["auth_token"] != "first" {
		t.Fatalf("credentials after a PATCH without them: %v", got)
	}
	h.expect(h.call(tok, "PATCH", phone+"/"+id, `{"name":"custom","configuration":{"delivery_methods":["voice"]},"credentials":{}}`), 200, `"name":"custom"`, `"configuration":{"delivery_methods":["voice"]}`)
	if got := h.s.PhoneCredentials(id); len(got) != 0 {
		t.Fatalf("credentials after switching to custom: %v", got)
	}
	h.expect(h.call(tok, "DELETE", phone+"/"+id, nil), 204)
	if got := h.s.PhoneCredentials(id); got != nil {
		t.Fatalf("credentials of a deleted provider: %v", got)
	}
}

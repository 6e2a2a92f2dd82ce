package emulator

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

// TestTriggers_list: GET /actions/triggers in the recorded shape
// (TestActionManager_Triggers.yaml), one entry per trigger version, and
// every trigger an action may name among them.
func TestTriggers_list(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	r := h.call(tok, "GET", "/api/v2/actions/triggers", nil)
	h.expect(r, 200, `{"triggers":[{"id":"post-login","version":"v1","status":"DEPRECATED","runtimes":[`,
		`{"id":"post-login","version":"v3","status":"CURRENT","runtimes":[`,
		`"compatible_triggers":[{"id":"post-login","version":"v2"}]}`,
		`{"id":"send-phone-message","version":"v1","status":"DEPRECATED","runtimes":["node12"],"compatible_triggers":[]}`,
		`{"id":"custom-token-exchange","version":"v1","status":"CURRENT","runtimes":[`)
	var list struct {
		Triggers []map[string]json.RawMessage `json:"triggers"`
	}
	if err := json.Unmarshal([]byte(r.body), &list); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tr := range list.Triggers {
		for k := range tr {
			if !slices.Contains([]string{"id", "version", "status", "runtimes", "default_runtime", "compatible_triggers"}, k) {
				t.Errorf("trigger key %q", k)
			}
		}
		var id, status string
		_ = json.Unmarshal(tr["id"], &id)
		_ = json.Unmarshal(tr["status"], &status)
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
		var runtimes []string
		_ = json.Unmarshal(tr["runtimes"], &runtimes)
		if status == "CURRENT" {
			// A current trigger offers what an action may run on.
			var def string
			_ = json.Unmarshal(tr["default_runtime"], &def)
			if def != "node22" || !slices.Contains(runtimes, "node22") || !slices.Contains(runtimes, "node18") {
				t.Errorf("current trigger %s: runtimes %v, default %q", tr["id"], runtimes, def)
			}
		}
	}
	sorted := slices.Sorted(slices.Values(ids))
	if want := slices.Sorted(slices.Values(tenant.TriggerIDs)); !reflect.DeepEqual(sorted, want) {
		t.Fatalf("trigger ids %v, want the ones an action may name %v", sorted, want)
	}
	reader := "trigger-reader"
	h.s.AddClient(Client{ID: reader, Secret: "s", Scopes: []string{"read:roles"}})
	h.expect(h.call(h.tokenFor(reader, "s"), "GET", "/api/v2/actions/triggers", nil), 403, "read:actions")
}

// TestActions_rollBack: POST .../versions/{versionId}/deploy makes a new
// version identical to the one named and deploys it, in the deploy
// answer's shape (TestActionManager_DeployVersion.yaml).
func TestActions_rollBack(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond})
	tok := h.admin()
	id := h.action(tok, "post-login", false)
	h.poll(tok, id, statusIs(t, "built"))
	v1 := h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil).json(t)["id"].(string)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"code":"y","dependencies":[{"name":"lodash","version":"4.17.21"}]}`), 200)
	h.poll(tok, id, statusIs(t, "built"))
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil), 200, `"number":2`)

	r := h.call(tok, "POST", actionsPath+"/"+id+"/versions/"+v1+"/deploy", nil)
	h.expect(r, 200, `{"code":"x","dependencies":[],"id":"`, `"deployed":false,"number":3,"secrets":[],"status":"built",`,
		`"supported_triggers":[{"id":"post-login","version":"v1"}],"action":{"id":"`+id+`"`, `"all_changes_deployed":false}}`)
	v3 := r.json(t)["id"].(string)
	if v3 == v1 {
		t.Fatal("the roll-back reused the old version's id")
	}
	// The new version runs; the draft is left as it was, so it has
	// changes not deployed.
	h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"code":"y"`, `"current_version":{"id":"`+v3+`","code":"x"`,
		`"deployed_version":{"code":"x","dependencies":[],"id":"`+v3+`","deployed":true,"number":3`, `"all_changes_deployed":false}`)
	h.expect(h.call(tok, "GET", actionsPath+"/"+id+"/versions", nil), 200, `"total":3`)

	// update_draft takes the draft back to the version too.
	r = h.call(tok, "POST", actionsPath+"/"+id+"/versions/"+v1+"/deploy", `{"update_draft":true}`)
	h.expect(r, 200, `"number":4`)
	h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"code":"x","dependencies":[]`, `"status":"built"`, `"all_changes_deployed":true}`)

	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/versions/"+v1+"/deploy", `{"update_draft":"yes"}`), 400, `on property update_draft.`)
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/versions/"+v1+"/deploy", `{"draft":true}`), 400, `Additional properties not allowed: draft`)
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/versions/00000000-0000-4000-8000-000000000000/deploy", nil), 404, "That action version does not exist.")
	h.expect(h.call(tok, "POST", actionsPath+"/00000000-0000-4000-8000-000000000000/versions/"+v1+"/deploy", nil), 404, "That action does not exist.")
	h.s.AddClient(Client{ID: "reader", Secret: "s", Scopes: []string{"read:actions", "update:actions"}})
	h.expect(h.call(h.tokenFor("reader", "s"), "POST", actionsPath+"/"+id+"/versions/"+v1+"/deploy", nil), 403, "create:actions")
}

// TestActions_test: POST .../test takes {"payload": {...}} and answers 200
// with a result payload in the recorded shape (TestActionManager_Test.yaml);
// the emulator does not run the code, and its answer says so.
func TestActions_test(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	id := h.action(tok, "post-login", false)
	r := h.call(tok, "POST", actionsPath+"/"+id+"/test", `{"payload":{"event":{"user":{"email":"j+smith@example.com","emailVerified":true,"id":"auth0|5f7c8ec7c33c6c004bbafe82"}}}}`)
	h.expect(r, 200, `{"payload":{"error":{"message":"`, `"name":"`, `"stack":"`, `"stats":{"total_request_duration_ms":0,`, "emulator")
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/test", `{}`), 400, `'Missing required property: payload'.`)
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/test", `{"payload":[]}`), 400, `'Expected type object but found type array' on property payload.`)
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/test", `{"payload":{},"x":1}`), 400, `Additional properties not allowed: x`)
	h.expect(h.call(tok, "POST", actionsPath+"/00000000-0000-4000-8000-000000000000/test", `{"payload":{}}`), 404, "That action does not exist.")
}

// TestActions_nestedKeys: which keys each nested object of an action's
// write body accepts.
func TestActions_nestedKeys(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond})
	tok := h.admin()
	r := h.call(tok, "POST", actionsPath, `{"name":"n","supported_triggers":[{"id":"post-login","version":"v3"}],"secrets":[{"name":"A","value":"one"}]}`)
	h.expect(r, 201)
	id := r.json(t)["id"].(string)
	secrets := r.json(t)["secrets"]
	stamp := secrets.([]any)[0].(map[string]any)["updated_at"].(string)

	// The secrets as read back, with updated_at, as the recorded SDK sent
	// them (TestActionManager_Update.yaml): accepted, updated_at ignored.
	time.Sleep(time.Millisecond)
	r = h.call(tok, "PATCH", actionsPath+"/"+id, `{"secrets":[{"name":"A","updated_at":"`+stamp+`"}]}`)
	h.expect(r, 200, `"secrets":[{"name":"A","updated_at":"`+stamp+`"}]`)
	r = h.call(tok, "PATCH", actionsPath+"/"+id, `{"secrets":[{"name":"A","value":"two","updated_at":"2000-01-01T00:00:00.000Z"}]}`)
	h.expect(r, 200)
	if got := r.json(t)["secrets"].([]any)[0].(map[string]any)["updated_at"].(string); got == stamp || strings.HasPrefix(got, "2000") {
		t.Fatalf("a new value kept updated_at %s", got)
	}

	// A secret item allows any other key (the specification's
	// additionalProperties: true).
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"secrets":[{"name":"A","value":"three","note":{"any":1}}]}`), 200)

	// A trigger as GET /actions/triggers shows it is accepted; only id and
	// version are kept.
	full := `{"id":"post-login","version":"v3","status":"CURRENT","runtimes":["node18","node22"],"default_runtime":"node22",` +
		`"compatible_triggers":[{"id":"post-login","version":"v2"}],"binding_policy":"trigger-bound"}`
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"supported_triggers":[`+full+`]}`), 200, `"supported_triggers":[{"id":"post-login","version":"v3"}],`)

	for _, tc := range []struct{ body, want string }{
		{`{"supported_triggers":[{"id":"post-login","version":"v3","x":1}]}`, `'Additional properties not allowed: x' on property supported_triggers[0].`},
		{`{"supported_triggers":[{"id":"post-login","version":"v3","binding_policy":"bound"}]}`, `'No enum match for: \"bound\"' on property supported_triggers[0].binding_policy.`},
		{`{"supported_triggers":[{"id":"post-login","version":"v3","runtimes":"node22"}]}`, `'Expected type array but found type string' on property supported_triggers[0].runtimes.`},
		{`{"supported_triggers":[{"id":"post-login","version":"v3","compatible_triggers":[{"id":"post-login"}]}]}`, `'Missing required property: version' on property supported_triggers[0].compatible_triggers[0].`},
		{`{"dependencies":[{"name":"lodash","version":"4.17.21","updated_at":"x"}]}`, `'Additional properties not allowed: updated_at' on property dependencies[0].`},
	} {
		h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, tc.body), 400, tc.want)
	}
}

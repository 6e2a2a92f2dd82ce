package emulator

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/wire"
)

const actionsPath = "/api/v2/actions/actions"

// inOrder reports whether seen, less its final status, is a subsequence of phases.
func inOrder(seen, phases []string) bool {
	i := 0
	for _, s := range seen[:len(seen)-1] {
		for i < len(phases) && phases[i] != s {
			i++
		}
		if i == len(phases) {
			return false
		}
		i++
	}
	return true
}

// buildPhases are the phases of the action's latest build, from the
// emulator's record of it. A poller sees a phase only when scheduling lets
// it, so a test checks the phases here, and that what the poller saw is
// among them, in order.
func (h *harness) buildPhases(id string) []string {
	h.t.Helper()
	h.s.t.Lock()
	b := h.s.t.St.Actions[id].Build
	h.s.t.Unlock()
	return b.Phases()
}

// sawBuild checks a build the poller followed to its end: its record went
// through want, and the poller saw phases of it in order, then last.
func (h *harness) sawBuild(id string, seen, want []string, last string) {
	h.t.Helper()
	if got := h.buildPhases(id); strings.Join(got, ",") != strings.Join(want, ",") {
		h.t.Fatalf("the build went through %v, want %v", got, want)
	}
	if len(seen) == 0 || seen[len(seen)-1] != last || !inOrder(seen, want) {
		h.t.Fatalf("the poller saw %v: not phases of %v in order, then %s", seen, want, last)
	}
}

// statusIs holds when the action's own status (not a version's) is want.
func statusIs(t *testing.T, want string) func(reply) bool {
	return func(r reply) bool { return r.json(t)["status"] == want }
}

func TestActions_buildProgression(t *testing.T) {
	h := start(t, Options{BuildDelay: 400 * time.Millisecond})
	tok := h.admin()
	r := h.call(tok, "POST", actionsPath, `{"name":"progress","supported_triggers":[{"id":"post-login","version":"v3"}],"code":"x"}`)
	h.expect(r, 201)
	// The observed key order; no version yet, nine fractional digits.
	shape := regexp.MustCompile(`^\{"id":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}","name":"progress","supported_triggers":\[\{"id":"post-login","version":"v3"\}\],` +
		`"created_at":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z","updated_at":"[^"]+","code":"x","dependencies":\[\],"runtime":"node22","status":"pending","secrets":\[\],"all_changes_deployed":false\}\n$`)
	if !shape.MatchString(r.body) {
		t.Fatalf("create answer %s", r.body)
	}
	id := r.json(t)["id"].(string)
	h.sawBuild(id, h.poll(tok, id, statusIs(t, "built")), tenant.BuildSucceeds, "built")
	r = h.call(tok, "GET", actionsPath+"/"+id, nil)
	if strings.Contains(r.body, "current_version") || strings.Contains(r.body, "deployed_version") {
		t.Fatalf("a version before any deploy: %s", r.body)
	}
}

func TestActions_failedBuilds(t *testing.T) {
	h := start(t, Options{BuildDelay: 200 * time.Millisecond})
	tok := h.admin()
	// A built, deployed first version.
	r := h.call(tok, "POST", actionsPath, `{"name":"deps","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"v1","dependencies":[{"name":"lodash","version":"4.17.21"}],"deploy":true}`)
	h.expect(r, 201, `"dependencies":[{"name":"lodash","version":"4.17.21"}]`)
	id := r.json(t)["id"].(string)
	h.poll(tok, id, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })

	for _, tc := range []struct{ name, deps string }{
		{"unpublished version", `[{"name":"crypto","version":"17.7.1"}]`},
		{"impossible version", `[{"name":"lodash","version":"not a version!"}]`},
		{"invalid name", `[{"name":"_lodash","version":"4.17.21"}]`},
		{"invalid scoped name", `[{"name":"@scope/../x","version":"1.0.0"}]`},
		{"one bad of two", `[{"name":"uuid","version":"9.0.1"},{"name":"crypto","version":"17.7.1"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The build starts pending (the PATCH's answer shows it); polling
			// may miss a short phase, never reorder them.
			h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"code":"v2","dependencies":`+tc.deps+`}`), 200, `"status":"pending"`, `"all_changes_deployed":false`)
			h.sawBuild(id, h.poll(tok, id, statusIs(t, "failed")), tenant.BuildFails, "failed")
			m := h.call(tok, "GET", actionsPath+"/"+id, nil).json(t)
			cur, dep := m["current_version"].(map[string]any), m["deployed_version"].(map[string]any)
			if m["all_changes_deployed"] != false || m["code"] != "v2" || cur["number"] != 1.0 || cur["code"] != "v1" || cur["status"] != "BUILT" ||
				dep["number"] != 1.0 || dep["code"] != "v1" || dep["status"] != "built" || dep["deployed"] != true {
				t.Fatalf("after a failed build: %v", m)
			}
			h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil), 400,
				`"message":"The action cannot be deployed: its status is failed, and only a built action can be deployed."`)
		})
	}
	// Fixed dependencies build again, and a dist-tag such as "latest" installs.
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"dependencies":[{"name":"axios","version":"latest","registry_url":"https://registry.npmjs.org"}]}`), 200,
		`"dependencies":[{"name":"axios","version":"latest","registry_url":"https://registry.npmjs.org"}]`)
	h.pollFor(tok, id, time.Minute, statusIs(t, "built")) // npm installs axios
}

func TestActions_deployAndVersions(t *testing.T) {
	h := start(t, Options{BuildDelay: 40 * time.Millisecond})
	tok := h.admin()
	id := h.action(tok, "custom-token-exchange", false)
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil), 400, "only a built action can be deployed")
	h.poll(tok, id, statusIs(t, "built"))

	// The deploy answer: the version, deployed:false, and an action summary.
	r := h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil)
	h.expect(r, 200)
	answer := regexp.MustCompile(`^\{"code":"x","dependencies":\[\],"id":"[0-9a-f-]{36}","deployed":false,"number":1,"secrets":\[\],"status":"built","created_at":"[^"]+","updated_at":"[^"]+","runtime":"node22",` +
		`"supported_triggers":\[\{"id":"custom-token-exchange","version":"v1"\}\],"action":\{"id":"` + id + `","name":"a","supported_triggers":\[[^\]]+\],"created_at":"[^"]+","updated_at":"[^"]+","all_changes_deployed":false\}\}\n$`)
	if !answer.MatchString(r.body) {
		t.Fatalf("deploy answer %s", r.body)
	}
	v1 := r.json(t)["id"].(string)
	r = h.call(tok, "GET", actionsPath+"/"+id, nil)
	h.expect(r, 200, `"status":"built","secrets":[],"current_version":{"id":"`+v1+`","code":"x","runtime":"node22","status":"BUILT","number":1,"build_time":"`,
		`"deployed_version":{"code":"x","dependencies":[],"id":"`+v1+`","deployed":true,"number":1,"built_at":"`, `"all_changes_deployed":true}`)

	// A change is not deployed until the next deploy.
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"code":"y","runtime":"node18"}`), 200, `"all_changes_deployed":false`, `"runtime":"node18"`)
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil), 400, "only a built action can be deployed")
	h.poll(tok, id, statusIs(t, "built"))
	h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"deployed_version":{"code":"x"`, `"all_changes_deployed":false`)
	r = h.call(tok, "POST", actionsPath+"/"+id+"/deploy", `{}`)
	h.expect(r, 200, `"number":2`, `"code":"y"`, `"runtime":"node18"`)
	v2 := r.json(t)["id"].(string)
	h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"current_version":{"id":"`+v2, `"deployed_version":{"code":"y","dependencies":[],"id":"`+v2+`","deployed":true,"number":2`, `"all_changes_deployed":true}`)

	// Versions, newest first; only the newest is deployed.
	r = h.call(tok, "GET", actionsPath+"/"+id+"/versions", nil)
	h.expect(r, 200, `"total":2,"per_page":20}`)
	vs := r.json(t)["versions"].([]any)
	first, second := vs[0].(map[string]any), vs[1].(map[string]any)
	if len(vs) != 2 || first["id"] != v2 || first["deployed"] != true || second["id"] != v1 || second["deployed"] != false || first["action"].(map[string]any)["id"] != id {
		t.Fatalf("versions %s", r.body)
	}
	h.expect(h.call(tok, "GET", actionsPath+"/"+id+"/versions?page=1&per_page=1", nil), 200, `"id":"`+v1, `"total":2,"per_page":1}`)
	h.expect(h.call(tok, "GET", actionsPath+"/"+id+"/versions/"+v1, nil), 200, `"id":"`+v1, `"deployed":false`, `"number":1`, `"code":"x"`)
	h.expect(h.call(tok, "GET", actionsPath+"/"+id+"/versions/00000000-0000-4000-8000-000000000000", nil), 404, `"message":"That action version does not exist."`)
	h.expect(h.call(tok, "GET", actionsPath+"/00000000-0000-4000-8000-000000000000/versions", nil), 404, "That action does not exist.")
	h.expect(h.call(tok, "POST", actionsPath+"/00000000-0000-4000-8000-000000000000/deploy", nil), 404, "That action does not exist.")
}

func TestActions_deployOnCreate(t *testing.T) {
	h := start(t, Options{BuildDelay: 200 * time.Millisecond})
	tok := h.admin()
	r := h.call(tok, "POST", actionsPath, `{"name":"cte","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"x","deploy":true}`)
	h.expect(r, 201, `"status":"pending"`, `"all_changes_deployed":false`)
	if strings.Contains(r.body, "deployed_version") {
		t.Fatalf("deployed before its build: %s", r.body)
	}
	id := r.json(t)["id"].(string)
	profile := fmt.Sprintf(`{"name":"early","subject_token_type":"urn:acme:early","action_id":%q,"type":"custom_authentication"}`, id)
	h.expect(h.call(tok, "POST", "/api/v2/token-exchange-profiles", profile), 400, "has not been deployed")
	seen := h.poll(tok, id, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
	if seen[len(seen)-1] != "built" {
		t.Fatalf("statuses %v", seen)
	}
	h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"deployed":true,"number":1`)
	h.expect(h.call(tok, "POST", "/api/v2/token-exchange-profiles", profile), 201)

	// A PATCH before the build is over cancels the deploy the create asked for.
	r = h.call(tok, "POST", actionsPath, `{"name":"changed","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"deploy":true}`)
	changed := r.json(t)["id"].(string)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+changed, `{"code":"changed"}`), 200)
	h.poll(tok, changed, statusIs(t, "built"))
	if r := h.call(tok, "GET", actionsPath+"/"+changed, nil); strings.Contains(r.body, "deployed_version") {
		t.Fatalf("deployed after a PATCH: %s", r.body)
	}

	// A build that fails never deploys.
	r = h.call(tok, "POST", actionsPath, `{"name":"bad","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"dependencies":[{"name":"crypto","version":"17.7.1"}],"deploy":true}`)
	bad := r.json(t)["id"].(string)
	h.poll(tok, bad, statusIs(t, "failed"))
	if r := h.call(tok, "GET", actionsPath+"/"+bad, nil); strings.Contains(r.body, "deployed_version") {
		t.Fatalf("a failed build was deployed: %s", r.body)
	}
}

func TestActions_secretsNeverReturned(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond})
	tok := h.admin()
	const value1, value2, value3 = "value-one-s3cr3t", "value-two-s3cr3t", "value-three-s3cr3t"
	r := h.call(tok, "POST", actionsPath, `{"name":"sec","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"secrets":[{"name":"A","value":"`+value1+`"},{"name":"B","value":"`+value2+`"}]}`)
	h.expect(r, 201, `"secrets":[{"name":"A","updated_at":"`, `{"name":"B","updated_at":"`)
	id := r.json(t)["id"].(string)
	stampA := r.json(t)["secrets"].([]any)[0].(map[string]any)["updated_at"]
	h.poll(tok, id, statusIs(t, "built"))
	var bodies []string
	bodies = append(bodies, r.body, h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil).body)
	time.Sleep(time.Millisecond)
	// PATCH: A keeps its value (name only), B is dropped, C is new.
	r = h.call(tok, "PATCH", actionsPath+"/"+id, `{"secrets":[{"name":"A"},{"name":"C","value":"`+value3+`"}]}`)
	h.expect(r, 200, `"secrets":[{"name":"A","updated_at":"`, `{"name":"C","updated_at":"`)
	if secrets := r.json(t)["secrets"].([]any); len(secrets) != 2 || secrets[0].(map[string]any)["updated_at"] != stampA {
		t.Fatalf("secrets after PATCH %s", r.body)
	}
	h.poll(tok, id, statusIs(t, "built"))
	bodies = append(bodies, r.body, h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil).body,
		h.call(tok, "GET", actionsPath+"/"+id, nil).body, h.call(tok, "GET", actionsPath, nil).body,
		h.call(tok, "GET", actionsPath+"/"+id+"/versions", nil).body, h.call("", "GET", "/__emulator/state", nil).body)
	for _, b := range bodies {
		for _, v := range []string{value1, value2, value3} {
			if strings.Contains(b, v) {
				t.Fatalf("a secret value is shown: %s", b)
			}
		}
	}
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"secrets":[{"name":"NEW"}]}`), 400, `'Missing required property: value' on property secrets[0].`)
	h.expect(h.call(tok, "POST", actionsPath, `{"name":"s","supported_triggers":[{"id":"post-login","version":"v3"}],"secrets":[{"name":"A"}]}`), 400, `'Missing required property: value' on property secrets[0].`)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"secrets":[{"name":"A","value":"1"},{"name":"A","value":"2"}]}`), 400, `'Duplicate secret name: A' on property secrets[1].name.`)
}

func TestActions_validation(t *testing.T) {
	h := start(t, Options{})
	tok := h.admin()
	for _, tc := range []struct{ name, body, want string }{
		{"unknown key", `{"name":"a","supported_triggers":[{"id":"post-login","version":"v3"}],"status":"built"}`, `'Additional properties not allowed: status'.`},
		{"name missing", `{"supported_triggers":[{"id":"post-login","version":"v3"}]}`, `'Missing required property: name'.`},
		{"triggers missing", `{"name":"a"}`, `'Missing required property: supported_triggers'.`},
		{"triggers empty", `{"name":"a","supported_triggers":[]}`, `'Array is too short (0), minimum 1' on property supported_triggers.`},
		{"trigger unknown", `{"name":"a","supported_triggers":[{"id":"pre-login","version":"v1"}]}`, `'No enum match for: "pre-login"' on property supported_triggers[0].id.`},
		{"trigger version missing", `{"name":"a","supported_triggers":[{"id":"post-login"}]}`, `'Missing required property: version' on property supported_triggers[0].`},
		{"runtime", `{"name":"a","supported_triggers":[{"id":"post-login","version":"v3"}],"runtime":"node16"}`, `'No enum match for: "node16"' on property runtime.`},
		{"dependency version missing", `{"name":"a","supported_triggers":[{"id":"post-login","version":"v3"}],"dependencies":[{"name":"lodash"}]}`, `'Missing required property: version' on property dependencies[0].`},
		{"dependency extra key", `{"name":"a","supported_triggers":[{"id":"post-login","version":"v3"}],"dependencies":[{"name":"lodash","version":"4.17.21","x":1}]}`, `'Additional properties not allowed: x' on property dependencies[0].`},
		{"deploy type", `{"name":"a","supported_triggers":[{"id":"post-login","version":"v3"}],"deploy":"yes"}`, `'Expected type boolean but found type string' on property deploy.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.expect(h.call(tok, "POST", actionsPath, tc.body), 400, `"errorCode":"invalid_body"`, strings.ReplaceAll(tc.want, `"`, `\"`))
		})
	}
	id := h.action(tok, "post-login", false)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"deploy":true}`), 400, `'Additional properties not allowed: deploy'.`)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"runtime":"node20"}`), 400, `on property runtime.`)
	h.expect(h.call(tok, "PATCH", actionsPath+"/00000000-0000-4000-8000-000000000000", `{"code":"x"}`), 404, "That action does not exist.")
	// Stored and read back (reference §2).
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"name":"renamed","supported_triggers":[{"id":"credentials-exchange","version":"v2"}],"runtime":"node18","dependencies":[{"name":"uuid","version":"9.0.1"}]}`), 200)
	h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"name":"renamed","supported_triggers":[{"id":"credentials-exchange","version":"v2"}]`,
		`"dependencies":[{"name":"uuid","version":"9.0.1"}],"runtime":"node18"`)
}

func TestActions_listAndDelete(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond})
	tok := h.admin()
	cte := h.action(tok, "custom-token-exchange", true)
	h.action(tok, "post-login", false)
	h.action(tok, "post-login", false)
	r := h.call(tok, "GET", actionsPath, nil)
	h.expect(r, 200)
	if !strings.HasPrefix(r.body, `{"actions":[{"id":"`+cte) || !strings.HasSuffix(r.body, `],"total":3,"per_page":20}`+"\n") {
		t.Fatalf("list %s", r.body)
	}
	h.expect(h.call(tok, "GET", actionsPath+"?triggerId=post-login&per_page=1&page=1", nil), 200, `"total":2,"per_page":1}`)
	h.expect(h.call(tok, "GET", actionsPath+"?deployed=true", nil), 200, `"id":"`+cte, `"total":1,`)
	h.expect(h.call(tok, "GET", actionsPath+"?deployed=false", nil), 200, `"total":2,`)
	h.expect(h.call(tok, "GET", actionsPath+"?actionName=nope", nil), 200, `{"actions":[],"total":0,"per_page":20}`)
	h.expect(h.call(tok, "GET", actionsPath+"?deployed=maybe", nil), 400, "on property deployed.")
	h.expect(h.call(tok, "GET", "/api/v2/actions/triggers/post-login/bindings?page=0&per_page=100", nil), 200, `{"bindings":[],"per_page":100}`)

	// An action a profile uses is kept unless force=true; the profile stays.
	r = h.call(tok, "POST", "/api/v2/token-exchange-profiles", fmt.Sprintf(`{"name":"uses","subject_token_type":"urn:acme:uses","action_id":%q,"type":"custom_authentication"}`, cte))
	h.expect(r, 201)
	tep := r.json(t)["id"].(string)
	r = h.call(tok, "DELETE", actionsPath+"/"+cte, nil)
	h.expect(r, 409, `{"statusCode":409,"error":"Conflict","message":"The action is used by token exchange profile `+tep+` (uses); delete the profile first, or delete the action with force=true."}`)
	h.expect(h.call(tok, "DELETE", actionsPath+"/"+cte+"?force=false", nil), 409)
	h.expect(h.call(tok, "GET", actionsPath+"/"+cte, nil), 200)
	r = h.call(tok, "DELETE", actionsPath+"/"+cte+"?force=true", nil)
	h.expect(r, 204)
	if r.body != "" || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("delete answer %q %v", r.body, r.header)
	}
	h.expect(h.call(tok, "GET", "/api/v2/token-exchange-profiles/"+tep, nil), 200, `"action_id":"`+cte)
	h.expect(h.call(tok, "DELETE", actionsPath+"/"+cte, nil), 404, `{"statusCode":404,"error":"Not Found","message":"That action does not exist."}`)
	h.expect(h.call(tok, "GET", actionsPath+"/"+cte, nil), 404, "That action does not exist.")
}

func TestActions_demoIsDeployed(t *testing.T) {
	h := start(t, Options{Demo: true, BuildDelay: time.Hour})
	tok := h.admin()
	h.expect(h.call(tok, "GET", actionsPath+"/"+h.s.Demo().ActionID, nil), 200, `"status":"built"`, `"current_version":{`, `"status":"BUILT","number":1`,
		`"deployed_version":{`, `"deployed":true`, `"all_changes_deployed":true}`)
	h.expect(h.call(tok, "POST", "/api/v2/token-exchange-profiles", fmt.Sprintf(`{"name":"demo","subject_token_type":"urn:acme:demo","action_id":%q,"type":"custom_authentication"}`, h.s.Demo().ActionID)), 201)
}

// node18-actions is accepted on create and PATCH, read back unchanged, built
// and deployed (reference §2, incumbent cassette TestAccAction.yaml).
func TestActions_runtimeNode18Actions(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond})
	tok := h.admin()
	r := h.call(tok, "POST", actionsPath, `{"name":"rt","supported_triggers":[{"id":"post-login","version":"v3"}],"code":"x","runtime":"node18-actions"}`)
	h.expect(r, 201, `"runtime":"node18-actions"`)
	created := r.json(t)["id"].(string)
	h.poll(tok, created, statusIs(t, "built"))
	h.expect(h.call(tok, "GET", actionsPath+"/"+created, nil), 200, `"runtime":"node18-actions"`)

	id := h.action(tok, "custom-token-exchange", false)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"runtime":"node18-actions"}`), 200, `"runtime":"node18-actions"`)
	h.poll(tok, id, statusIs(t, "built"))
	h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil), 200, `"runtime":"node18-actions"`)
	h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"runtime":"node18-actions","status":"built"`,
		`"current_version":{"id":"`, `"runtime":"node18-actions","status":"BUILT"`, `"runtime":"node18-actions","supported_triggers"`)
}

// Real published packages build (reference §2: auth0@2.41.0, auth0@2.42.0
// and moment@2.29.4 were installed, built and deployed); without npm, so
// does any other package at a well-formed version, range or dist-tag,
// since the emulator cannot know what the registry holds (with npm, the
// registry says: TestActions_buildFailsOnMissingPackage).
func TestActions_publishedPackagesBuild(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond, Npm: filepath.Join(t.TempDir(), "no-npm")})
	tok := h.admin()
	for _, deps := range []string{
		`[{"name":"auth0","version":"2.42.0"}]`,
		`[{"name":"auth0","version":"2.41.0"},{"name":"moment","version":"2.29.4"}]`,
		`[{"name":"moment","version":"2.29.4"}]`,
		`[{"name":"left-pad","version":"^1.3.0"},{"name":"@scope/pkg","version":">=1.0.0 <2.0.0 || 3.x"}]`,
		`[{"name":"JSONStream","version":"1.3.5"},{"name":"jose","version":"next"},{"name":"crypto","version":"1.0.1"}]`,
	} {
		r := h.call(tok, "POST", actionsPath, `{"name":"pkgs","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"x","dependencies":`+deps+`,"deploy":true}`)
		h.expect(r, 201)
		id := r.json(t)["id"].(string)
		if seen := h.poll(tok, id, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) }); seen[len(seen)-1] != "built" {
			t.Fatalf("%s: statuses %v", deps, seen)
		}
	}
}

// Only what the emulator can know fails a build: the observed crypto@17.7.1
// (reference §2), a version that cannot exist, a name npm refuses.
func TestActions_impossibleDependenciesFail(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond})
	tok := h.admin()
	for _, deps := range []string{
		`[{"name":"crypto","version":"17.7.1"}]`,
		`[{"name":"lodash","version":"not a version!"}]`,
		`[{"name":"moment","version":"2.29.4"},{"name":"auth0","version":"^2.42.0 <"}]`,
		`[{"name":"_private","version":"1.0.0"}]`,
	} {
		r := h.call(tok, "POST", actionsPath, `{"name":"bad","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"x","dependencies":`+deps+`}`)
		h.expect(r, 201)
		id := r.json(t)["id"].(string)
		h.sawBuild(id, h.poll(tok, id, statusIs(t, "failed")), tenant.BuildFails, "failed")
	}
}

// The deploy route needs create:actions (the published specification's
// post_deploy_action).
func TestActions_deployNeedsCreateScope(t *testing.T) {
	h := start(t, Options{BuildDelay: 20 * time.Millisecond})
	tok := h.admin()
	id := h.action(tok, "custom-token-exchange", false)
	h.poll(tok, id, statusIs(t, "built"))
	h.s.AddClient(Client{ID: "updater", Secret: "updater-secret", Scopes: []string{"read:actions", "update:actions", "delete:actions"}, Global: true})
	h.expect(h.call(h.tokenFor("updater", "updater-secret"), "POST", actionsPath+"/"+id+"/deploy", nil), 403,
		`"message":"Insufficient scope, expected any of: create:actions"`, `"errorCode":"insufficient_scope"`)
	h.s.AddClient(Client{ID: "creator", Secret: "creator-secret", Scopes: []string{"create:actions"}, Global: true})
	h.expect(h.call(h.tokenFor("creator", "creator-secret"), "POST", actionsPath+"/"+id+"/deploy", nil), 200, `"number":1`)
}

// A package the failing_packages fault names fails every build started
// while the fault is set, and builds again once it is cleared.
func TestFaults_failingPackages(t *testing.T) {
	// Without npm: the fault alone decides (@acme/sdk does not exist).
	h := start(t, Options{BuildDelay: 20 * time.Millisecond, Npm: filepath.Join(t.TempDir(), "no-npm")})
	tok := h.admin()
	id := h.action(tok, "custom-token-exchange", false)
	deps := `{"dependencies":[{"name":"auth0","version":"2.42.0"},{"name":"@acme/sdk","version":"1.0.0"}]}`

	r := h.call("", "PUT", "/__emulator/faults", `{"failing_packages":["auth0@2.42.0"]}`)
	h.expect(r, 200, `"failing_packages":["auth0@2.42.0"]`)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, deps), 200)
	// The build failed, through the observed phases. A poller sees each
	// phase only when scheduling lets it, so the phases are read from the
	// build, and what the poller saw must be among them.
	seen := h.poll(tok, id, statusIs(t, "failed"))
	h.s.t.Lock()
	b := h.s.t.St.Actions[id].Build
	h.s.t.Unlock()
	if phases := strings.Join(b.Phases(), ","); !b.Fails || phases != "pending,building,retrying,building,retrying,building" {
		t.Fatalf("the build failed as a build that fails %v, through %s", b.Fails, phases)
	}
	for _, st := range seen {
		if !wire.Contains(append(b.Phases(), "failed"), st) {
			t.Fatalf("the poller saw %q, not a phase of a failing build: %v", st, seen)
		}
	}
	// Another version of the package is not named by the fault.
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"dependencies":[{"name":"auth0","version":"2.41.0"}]}`), 200)
	h.poll(tok, id, statusIs(t, "built"))

	// A bare name fails every version of it, scoped names included.
	h.expect(h.call("", "PUT", "/__emulator/faults", `{"failing_packages":["@acme/sdk"]}`), 200)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, deps), 200)
	h.poll(tok, id, statusIs(t, "failed"))

	h.expect(h.call("", "PUT", "/__emulator/faults", `{}`), 200)
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, deps), 200)
	h.poll(tok, id, statusIs(t, "built"))

	// The same through SetFaults, and malformed entries are refused.
	h.s.SetFaults(Faults{FailingPackages: []string{"moment@2.29.4"}})
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"dependencies":[{"name":"moment","version":"2.29.4"}]}`), 200)
	h.poll(tok, id, statusIs(t, "failed"))
	h.s.SetFaults(Faults{})
	h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"dependencies":[{"name":"moment","version":"2.29.4"}]}`), 200)
	h.poll(tok, id, statusIs(t, "built"))
	for _, bad := range []string{`[""]`, `["auth0@"]`, `["_x@1.0.0"]`, `["@"]`, `"auth0"`} {
		h.expect(h.call("", "PUT", "/__emulator/faults", `{"failing_packages":`+bad+`}`), 400, "failing_packages")
	}
	if _, err := Start(Options{Faults: Faults{FailingPackages: []string{"auth0@"}}}); err == nil {
		t.Fatal("Start accepted a malformed failing package")
	}
}

package emulator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator/tenant"
)

func TestAssumptions_defaultsAndValues(t *testing.T) {
	var a tenant.Assumptions
	if err := a.Normalize(); err != nil {
		t.Fatal(err)
	}
	m := a.Map()
	for _, s := range tenant.AllAssumptions {
		if m[s.Name] != s.Values[0] {
			t.Errorf("%s defaults to %q, want %q", s.Name, m[s.Name], s.Values[0])
		}
		for _, v := range s.Values {
			var b tenant.Assumptions
			if err := b.Set(s.Name, v); err != nil || b.Map()[s.Name] != v {
				t.Errorf("Set(%s, %s): %v, %q", s.Name, v, err, b.Map()[s.Name])
			}
		}
	}
	if _, err := Start(Options{Assume: tenant.Assumptions{HeldPermission: "maybe"}}); err == nil || !strings.Contains(err.Error(), `held_permission: "maybe" is not one of accept, conflict`) {
		t.Fatalf("Start with a value the setting lacks: %v", err)
	}
}

// A permission the API does not define, and a pair the role holds.
func TestAssumptions_rolePermissions(t *testing.T) {
	pair := func(name string) string {
		return `{"permissions":[{"resource_server_identifier":"https://api.example.com/p","permission_name":"` + name + `"}]}`
	}
	for _, tc := range []struct {
		undefined, held string
		undefinedStatus int
		heldStatus      int
	}{
		{"refuse", "accept", 400, 201},
		{"accept", "conflict", 201, 409},
	} {
		t.Run(tc.undefined+"/"+tc.held, func(t *testing.T) {
			h := start(t, Options{Assume: tenant.Assumptions{UndefinedScope: tc.undefined, HeldPermission: tc.held}})
			tok := h.admin()
			h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/p","scopes":[{"value":"read:p"}]}`), 201)
			r := h.call(tok, "POST", "/api/v2/roles", `{"name":"perms"}`)
			id := r.json(t)["id"].(string)
			path := "/api/v2/roles/" + id + "/permissions"
			h.expect(h.call(tok, "POST", path, pair("undefined:p")), tc.undefinedStatus)
			h.expect(h.call(tok, "POST", path, pair("read:p")), 201)
			r = h.call(tok, "POST", path, pair("read:p"))
			h.expect(r, tc.heldStatus)
			if tc.heldStatus == 409 {
				h.expect(r, 409, `"message":"The role already has the permission 'read:p' of resource server 'https://api.example.com/p'."`)
			}
			want := `[{"permission_name":"read:p",`
			if tc.undefined == "accept" {
				// Held, without a description: the API defines none.
				want = `[{"permission_name":"read:p","description":"","resource_server_name":"","resource_server_identifier":"https://api.example.com/p"},` +
					`{"permission_name":"undefined:p","description":"","resource_server_name":"","resource_server_identifier":"https://api.example.com/p"}]`
			}
			h.expect(h.call(tok, "GET", path, nil), 200, want)
		})
	}
}

// Deploying as a step of its own: the create's deploy:true and a deploy
// show in deployed_version only a while after the build ended or the
// deploy was asked; together, at once.
func TestAssumptions_actionDeploy(t *testing.T) {
	const build = 400 * time.Millisecond
	for _, answer := range []string{"together", "separate"} {
		t.Run(answer, func(t *testing.T) {
			h := start(t, Options{BuildDelay: build, Assume: tenant.Assumptions{ActionDeploy: answer}})
			tok := h.admin()
			r := h.call(tok, "POST", actionsPath, `{"name":"a","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"code":"x","deploy":true}`)
			id := r.json(t)["id"].(string)
			h.poll(tok, id, statusIs(t, "built"))
			r = h.call(tok, "GET", actionsPath+"/"+id, nil)
			deployedAtBuild := strings.Contains(r.body, `"deployed_version"`)
			if deployedAtBuild != (answer == "together") {
				t.Fatalf("built: deployed_version shown %t: %s", deployedAtBuild, r.body)
			}
			h.poll(tok, id, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
			h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"deployed":true,"number":1`)

			h.expect(h.call(tok, "PATCH", actionsPath+"/"+id, `{"code":"y"}`), 200)
			h.poll(tok, id, statusIs(t, "built"))
			h.expect(h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil), 200, `"number":2`)
			r = h.call(tok, "GET", actionsPath+"/"+id, nil)
			if shown := strings.Contains(r.body, `"deployed_version":{"code":"y"`); shown != (answer == "together") {
				t.Fatalf("after the deploy: version 2 deployed %t: %s", shown, r.body)
			}
			h.poll(tok, id, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
			h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"deployed_version":{"code":"y","dependencies":[],"id":`, `"number":2`)
			if r := h.call(tok, "GET", actionsPath+"/"+id+"/versions", nil); strings.Count(r.body, `"deployed":true`) != 1 {
				t.Fatalf("versions deployed: %s", r.body)
			}
		})
	}
}

// A deploy before the build ended: refused, or deployed when the build
// succeeds (never when it fails).
func TestAssumptions_deployUnbuilt(t *testing.T) {
	for _, answer := range []string{"refuse", "wait"} {
		t.Run(answer, func(t *testing.T) {
			h := start(t, Options{BuildDelay: 200 * time.Millisecond, Assume: tenant.Assumptions{DeployUnbuilt: answer}})
			tok := h.admin()
			id := h.action(tok, "custom-token-exchange", false)
			r := h.call(tok, "POST", actionsPath+"/"+id+"/deploy", nil)
			if answer == "refuse" {
				h.expect(r, 400, "only a built action can be deployed")
				return
			}
			h.expect(r, 200, `"deployed":false,"number":1`)
			version := r.json(t)["id"].(string)
			h.poll(tok, id, func(r reply) bool { return strings.Contains(r.body, `"all_changes_deployed":true`) })
			h.expect(h.call(tok, "GET", actionsPath+"/"+id, nil), 200, `"deployed_version":{"code":"x","dependencies":[],"id":"`+version+`","deployed":true,"number":1`)

			r = h.call(tok, "POST", actionsPath, `{"name":"bad","supported_triggers":[{"id":"custom-token-exchange","version":"v1"}],"dependencies":[{"name":"crypto","version":"17.7.1"}]}`)
			bad := r.json(t)["id"].(string)
			h.expect(h.call(tok, "POST", actionsPath+"/"+bad+"/deploy", nil), 200)
			h.poll(tok, bad, statusIs(t, "failed"))
			h.expect(h.call(tok, "POST", actionsPath+"/"+bad+"/deploy", nil), 400, "its status is failed")
			if r := h.call(tok, "GET", actionsPath+"/"+bad, nil); strings.Contains(r.body, "deployed_version") {
				t.Fatalf("a failed build was deployed: %s", r.body)
			}
		})
	}
}

// Deleting an action a profile names, without force: refused or done.
func TestAssumptions_actionInUse(t *testing.T) {
	for _, answer := range []string{"refuse", "allow"} {
		t.Run(answer, func(t *testing.T) {
			h := start(t, Options{Assume: tenant.Assumptions{ActionInUse: answer}})
			tok := h.admin()
			id := h.action(tok, "custom-token-exchange", true)
			h.expect(h.call(tok, "POST", "/api/v2/token-exchange-profiles",
				fmt.Sprintf(`{"name":"uses","subject_token_type":"urn:acme:uses","action_id":%q,"type":"custom_authentication"}`, id)), 201)
			want := map[string]int{"refuse": 409, "allow": 204}[answer]
			h.expect(h.call(tok, "DELETE", actionsPath+"/"+id, nil), want)
		})
	}
}

// A resource server created without enforce_policies and token_dialect.
func TestAssumptions_unsetFields(t *testing.T) {
	for answer, want := range map[string][2]bool{"omit": {false, false}, "fill": {true, true}} {
		t.Run(answer, func(t *testing.T) {
			h := start(t, Options{Assume: tenant.Assumptions{UnsetFields: answer}})
			tok := h.admin()
			r := h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/u"}`)
			h.expect(r, 201)
			hasPolicies, hasDialect := strings.Contains(r.body, `"enforce_policies":false`), strings.Contains(r.body, `"token_dialect":"access_token"`)
			if [2]bool{hasPolicies, hasDialect} != want {
				t.Fatalf("create answer %s", r.body)
			}
			// A value sent is kept either way.
			h.expect(h.call(tok, "POST", "/api/v2/resource-servers", `{"identifier":"https://api.example.com/v","enforce_policies":true,"token_dialect":"rfc9068_profile"}`),
				201, `"enforce_policies":true,"token_dialect":"rfc9068_profile"`)
		})
	}
}

// name_filter as a substring, a prefix or the whole name, case-insensitive.
func TestAssumptions_roleNameFilter(t *testing.T) {
	for answer, want := range map[string]int{"substring": 3, "prefix": 2, "exact": 1} {
		t.Run(answer, func(t *testing.T) {
			h := start(t, Options{Assume: tenant.Assumptions{RoleNameFilter: answer}})
			tok := h.admin()
			for _, name := range []string{"Support", "support-lead", "team-support"} {
				h.expect(h.call(tok, "POST", "/api/v2/roles", `{"name":"`+name+`"}`), 200)
			}
			r := h.call(tok, "GET", "/api/v2/roles?name_filter=SUPPORT&include_totals=true", nil)
			h.expect(r, 200, fmt.Sprintf(`"total":%d`, want))
		})
	}
}

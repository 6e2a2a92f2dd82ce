package e2e_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// predictCase is a configuration that the tenant would refuse at apply
// (want: the plan's error) or that plans green with a warning (warn): the
// outcome depends on another resource of the configuration, or on an
// answer of the tenant that is not known.
type predictCase struct {
	name, hcl  string
	want, warn string   // the summary of the plan's error, or of its warning
	details    []string // and parts of the error's detail
	requests   int64    // the plan's API requests (token apart), measured
}

// TestPlanPredictsTheApply: each configuration that would fail at apply
// fails at `terraform plan` with a diagnostic naming the cause, and the plan
// sends no write; a configuration where the outcome depends on what the
// same configuration adds (an API named by its literal identifier), or on
// an answer of the tenant the API's documentation leaves open, plans with a
// warning; a valid configuration of the same objects, created
// together, plans green and applies. The request count of each plan is
// logged.
func TestPlanPredictsTheApply(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	c := target.Client()
	ctx := context.Background()
	deployed := target.Action(t, mgmt.TriggerCustomTokenExchange, true)
	undeployed := target.Action(t, mgmt.TriggerCustomTokenExchange, false)
	postLogin := target.Action(t, "post-login", true)
	role := target.Role(t)
	scopes := []mgmt.ResourceServerScope{{Value: "read:x"}}
	existingAPI := "https://existing.example.com/" + acctest.RandomName()
	if _, err := c.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: existingAPI, Scopes: &scopes}); err != nil {
		t.Fatal(err)
	}
	taken := "urn:acme:taken:" + acctest.RandomName()
	if _, err := c.CreateTokenExchangeProfile(ctx, mgmt.TokenExchangeProfileCreate{Name: "taken", SubjectTokenType: taken, ActionID: deployed, Type: "custom_authentication"}); err != nil {
		t.Fatal(err)
	}
	profile := func(stt, action string) string {
		return fmt.Sprintf(`
resource "tenant_token_exchange_profile" "p" {
  name               = "profile"
  subject_token_type = %q
  action_id          = %q
  type               = "custom_authentication"
}
`, stt, action)
	}
	perms := func(roleID, ident, name string) string {
		return fmt.Sprintf(`
resource "tenant_role_permissions" "r" {
  role_id     = %q
  permissions = { %q = [%q] }
}
`, roleID, ident, name)
	}
	cases := []*predictCase{
		// The tenant refuses a profile on an action it cannot run (400,
		// reference §1 [P]): the plan fails, naming the action, its trigger
		// and what to do.
		{name: "profile: action of another trigger", hcl: profile("urn:acme:a", postLogin), want: "Unable to use action",
			details: []string{"The action " + postLogin + " (", `runs at the trigger "post-login", not "custom-token-exchange"`,
				`Use an action whose supported_triggers id is "custom-token-exchange"`}},
		{name: "profile: action not deployed", hcl: profile("urn:acme:b", undeployed), want: "Unable to use action",
			details: []string{"The action " + undeployed + " (", `of the trigger "custom-token-exchange" has no deployed version`, "deploy = true"}},
		{name: "profile: action does not exist", hcl: profile("urn:acme:c", "00000000-0000-4000-8000-000000000000"), want: "Unable to use action",
			details: []string{`No action with id "00000000-0000-4000-8000-000000000000" exists in the tenant`, "or correct the id"}},
		{name: "profile: subject token type taken", hcl: profile(taken, deployed), want: "Unable to use token exchange profile subject token type"},
		{name: "API: identifier exists", hcl: fmt.Sprintf("resource \"tenant_resource_server\" \"a\" {\n  identifier = %q\n}\n", existingAPI), want: "Unable to use resource server identifier"},
		{name: "role: name taken", hcl: fmt.Sprintf("resource \"tenant_role\" \"r\" {\n  name = %q\n}\n", role.Name), want: "Unable to use role name"},
		{name: "permissions: role does not exist", hcl: perms("rol_doesnotexist0000", existingAPI, "read:x"), want: "Unable to assign role permissions"},
		{name: "permission: role does not exist", want: "Unable to assign role permissions", hcl: fmt.Sprintf(`
resource "tenant_role_permission" "r" {
  role_id                    = "rol_doesnotexist0000"
  resource_server_identifier = %q
  permission_name            = "read:x"
}
`, existingAPI)},
		// Whether the tenant refuses a permission whose scope the API does
		// not define is not known either: the plan warns.
		{name: "permissions: scope the configuration's API will not define", warn: "Scope not defined", hcl: fmt.Sprintf(`
resource "tenant_resource_server" "a" {
  identifier = "https://new.example.com/%s"
  scopes     = { "read:y" = "" }
}

resource "tenant_role_permissions" "r" {
  role_id     = %q
  permissions = { (tenant_resource_server.a.identifier) = ["write:y"] }
}
`, acctest.RandomName(), role.ID)},
		// The API is named by its literal identifier: a resource of this
		// configuration may still add the scope, so the plan warns.
		{name: "permissions: scope the tenant's API does not define", hcl: perms(role.ID, existingAPI, "write:x"), warn: "Scope not defined"},
		{name: "permissions: API not in the tenant", hcl: perms(role.ID, "https://nowhere.example.com/", "read:x"), warn: "API not found"},
	}
	for _, tc := range cases {
		cli := acctest.NewCLI(t, map[string]string{"main.tf": target.Config(tc.hcl)})
		emu.ResetStats()
		out, err := cli.Run("plan", "-input=false", "-no-color")
		st := emu.Stats()
		tc.requests = st.Total - st.ByRoute["POST /oauth/token"]
		flat := strings.Join(strings.Fields(out), " ")
		switch {
		case tc.want != "" && (err == nil || !strings.Contains(flat, "Error: "+tc.want) || !containsAll(flat, tc.details)):
			t.Errorf("%s: the plan did not fail with %q (%q): %v\n%s", tc.name, tc.want, tc.details, err, out)
		case tc.warn != "" && (err != nil || !strings.Contains(flat, "Warning: "+tc.warn)):
			t.Errorf("%s: the plan did not pass with the warning %q: %v\n%s", tc.name, tc.warn, err, out)
		}
		if n := acctest.Writes(st.ByRoute); n != 0 {
			t.Errorf("%s: the plan sent %d writes", tc.name, n)
		}
	}

	// The same kinds of objects, valid and created together: the API, its
	// scopes, the role, its permissions, a deployed action and a profile.
	name := acctest.RandomName()
	valid := fmt.Sprintf(`
resource "tenant_resource_server" "a" {
  identifier = "https://valid.example.com/%[1]s"
  scopes     = { "read:v" = "Read", "write:v" = "Write" }
}

resource "tenant_role" "r" {
  name = %[1]q
}

resource "tenant_role_permissions" "r" {
  role_id     = tenant_role.r.id
  permissions = { (tenant_resource_server.a.identifier) = keys(tenant_resource_server.a.scopes) }
}

resource "tenant_action" "x" {
  name               = %[1]q
  code               = "exports.onExecuteCustomTokenExchange = async (event, api) => {};"
  supported_triggers = { id = "custom-token-exchange", version = "v1" }
}

resource "tenant_token_exchange_profile" "p" {
  name               = "valid"
  subject_token_type = "urn:acme:valid:%[1]s"
  action_id          = tenant_action.x.id
  type               = "custom_authentication"
}

# An API whose scopes are known only at apply, and a permission of it.
resource "terraform_data" "scopes" {
  input = ["read:u"]
}

resource "tenant_resource_server" "u" {
  identifier = "https://unknown-scopes.example.com/%[1]s"
  scopes     = { for s in terraform_data.scopes.output : s => "" }
}

resource "tenant_role_permissions" "u" {
  role_id     = %[3]q
  permissions = { (tenant_resource_server.u.identifier) = ["read:u"] }
}

# An existing API's permission, by its literal identifier.
resource "tenant_role_permission" "existing" {
  role_id                    = tenant_role.r.id
  resource_server_identifier = %[2]q
  permission_name            = "read:x"
}
`, name, existingAPI, role.ID)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.Config(valid)})
	emu.ResetStats()
	out, err := cli.Run("plan", "-input=false", "-no-color")
	st := emu.Stats()
	if err != nil || strings.Contains(out, "Warning:") || strings.Contains(out, "Error:") {
		t.Fatalf("the valid configuration does not plan cleanly: %v\n%s", err, out)
	}
	validRequests := st.Total - st.ByRoute["POST /oauth/token"]
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, out)
	}

	// Many creates share their lookups: two direct ones per type, then one
	// walk of each type's list pages; the profiles' one action is read once.
	many := fmt.Sprintf(`
resource "tenant_resource_server" "many" {
  count      = 50
  identifier = "https://many.example.com/%[1]s/${count.index}"
}

resource "tenant_role" "many" {
  count = 50
  name  = "%[1]s-${count.index}"
}

resource "tenant_token_exchange_profile" "many" {
  count              = 50
  name               = "many-${count.index}"
  subject_token_type = "urn:acme:many:%[1]s:${count.index}"
  action_id          = %[2]q
  type               = "custom_authentication"
}
`, acctest.RandomName(), deployed)
	cli = acctest.NewCLI(t, map[string]string{"main.tf": target.Config(many)})
	emu.ResetStats()
	if out, err := cli.Run("plan", "-input=false", "-no-color"); err != nil {
		t.Fatalf("plan of 150 creates: %v\n%s", err, out)
	}
	st = emu.Stats()
	manyRequests := st.Total - st.ByRoute["POST /oauth/token"]
	// 2 direct lookups each for APIs and roles, one page of each type (the
	// tenant holds fewer than 100 of each), one read of the action.
	if manyRequests > 2+2+3+1 {
		t.Errorf("a plan of 150 creates sent %d requests: %v", manyRequests, st.ByRoute)
	}

	var rows []string
	for _, tc := range cases {
		what := "error: " + tc.want
		if tc.warn != "" {
			what = "warning: " + tc.warn
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %d |", tc.name, what, tc.requests))
	}
	sort.Strings(rows)
	t.Logf("plan-time checks (API requests of the plan, token apart):\n| configuration | plan | requests |\n| --- | --- | ---: |\n%s\n| the valid configuration (9 resources, created together) | green | %d |\n| 50 APIs, 50 roles, 50 profiles created | green | %d |",
		strings.Join(rows, "\n"), validRequests, manyRequests)
}

// TestPlanPredictsTheApply_replace: a replacement's create plan knows the
// object it replaces, so -replace of a role, an API and a profile plans and
// applies under the same name, identifier and subject token type.
func TestPlanPredictsTheApply_replace(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	target := acctest.NewTarget(t)
	target.RequireEmulator(t)
	deployed := target.Action(t, mgmt.TriggerCustomTokenExchange, true)
	name := acctest.RandomName()
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.Config(fmt.Sprintf(`
resource "tenant_role" "r" {
  name = %[1]q
}

resource "tenant_resource_server" "a" {
  identifier = "https://replace.example.com/%[1]s"
}

resource "tenant_token_exchange_profile" "p" {
  name               = "replaced"
  subject_token_type = "urn:acme:replace:%[1]s"
  action_id          = %[2]q
  type               = "custom_authentication"
}
`, name, deployed))})
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	before, err := cli.Run("state", "show", "-no-color", "tenant_role.r")
	if err != nil {
		t.Fatal(err)
	}
	out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color",
		"-replace=tenant_role.r", "-replace=tenant_resource_server.a", "-replace=tenant_token_exchange_profile.p")
	if err != nil || !strings.Contains(out, "3 added, 0 changed, 3 destroyed") {
		t.Fatalf("apply -replace: %v\n%s", err, out)
	}
	after, err := cli.Run("state", "show", "-no-color", "tenant_role.r")
	if err != nil || after == before {
		t.Fatalf("the role was not replaced: %v\n%s", err, after)
	}
	if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("plan after the replacement is not empty: %v\n%s", err, out)
	}
	if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, out)
	}
}

// containsAll reports whether s holds every one of parts.
func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

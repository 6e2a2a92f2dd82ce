package e2e_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// costCase is one resource's life through the CLI: create, a no-change
// plan, an update, an import into an empty state, and destroy.
type costCase struct {
	name           string
	address, id    string // id: the import ID, read from the state when empty
	create, update string
	budget         map[string]int64 // the most API requests each phase may send
}

// TestRequestCosts counts the API requests (the token request apart) that
// each operation of each resource sends, one resource in a configuration,
// and holds each to its budget: the provider never spends more requests on
// an operation than this table allows.
//
// A create (and an update that adds role permissions) includes the plan's
// checks of what the tenant would refuse: an identifier, role name or
// subject token type already taken, a profile's action, a role and the
// scopes a permission names. Terraform plans each change twice, at plan and
// again just before the apply, so each check's read counts twice here; in
// a plan of many objects the reads are shared list pages.
func TestRequestCosts(t *testing.T) {
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	scopes := []mgmt.ResourceServerScope{{Value: "read"}, {Value: "write"}, {Value: "delete"}}
	if _, err := c.CreateResourceServer(ctx, mgmt.ResourceServer{Identifier: "https://costs.example.com", Scopes: &scopes}); err != nil {
		t.Fatal(err)
	}
	role := emu.Demo().RoleID
	action := emu.Demo().ActionID
	// A deployed post-login action to bind; and no phone provider, so that
	// one can be created.
	login, err := c.CreateAction(ctx, mgmt.ActionCreate{Name: "costs-login", SupportedTriggers: []mgmt.ActionTrigger{{ID: "post-login", Version: "v3"}}, Code: "x", Deploy: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForAction(ctx, login.ID, mgmt.IsDeployed); err != nil {
		t.Fatal(err)
	}
	if err := c.DeletePhoneProvider(ctx, emu.Demo().PhoneProviderID); err != nil {
		t.Fatal(err)
	}
	cases := []costCase{
		{
			name: "tenant_resource_server", address: "tenant_resource_server.x",
			create: `resource "tenant_resource_server" "x" {
  identifier = "https://costs-api.example.com"
  scopes     = { "read:x" = "Read" }
}`,
			update: `resource "tenant_resource_server" "x" {
  identifier = "https://costs-api.example.com"
  name       = "Costs"
  scopes     = { "read:x" = "Read", "write:x" = "" }
}`,
			budget: map[string]int64{"create": 3, "plan": 1, "update": 2, "import": 2, "destroy": 2},
		},
		{
			name: "tenant_token_exchange_profile", address: "tenant_token_exchange_profile.x",
			create: fmt.Sprintf(`resource "tenant_token_exchange_profile" "x" {
  name               = "costs"
  subject_token_type = "urn:costs:token"
  action_id          = %q
}`, action),
			update: fmt.Sprintf(`resource "tenant_token_exchange_profile" "x" {
  name               = "costs renamed"
  subject_token_type = "urn:costs:token"
  action_id          = %q
}`, action),
			budget: map[string]int64{"create": 5, "plan": 1, "update": 2, "import": 1, "destroy": 2},
		},
		{
			name: "tenant_role", address: "tenant_role.x",
			create: `resource "tenant_role" "x" {
  name = "costs"
}`,
			update: `resource "tenant_role" "x" {
  name        = "costs"
  description = "Costs"
}`,
			budget: map[string]int64{"create": 3, "plan": 1, "update": 2, "import": 2, "destroy": 2},
		},
		{
			name: "tenant_role_permissions", address: "tenant_role_permissions.x", id: role,
			create: fmt.Sprintf(`resource "tenant_role_permissions" "x" {
  role_id     = %q
  permissions = { "https://costs.example.com" = ["read"] }
}`, role),
			update: fmt.Sprintf(`resource "tenant_role_permissions" "x" {
  role_id     = %q
  permissions = { "https://costs.example.com" = ["read", "write"] }
}`, role),
			// The create's plan reads the role to say which pairs it removes.
			// create: the plan reads what the role holds, to warn which
			// pairs the create removes; the apply reads it again (one read
			// shared by its plan and the create) and assigns.
			budget: map[string]int64{"create": 5, "plan": 1, "update": 4, "import": 1, "destroy": 2},
		},
		{
			name: "tenant_role_permission", address: "tenant_role_permission.x", id: role + "::https://costs.example.com::delete",
			create: fmt.Sprintf(`resource "tenant_role_permission" "x" {
  role_id                    = %q
  resource_server_identifier = "https://costs.example.com"
  permission_name            = "delete"
}`, role),
			budget: map[string]int64{"create": 5, "plan": 1, "import": 1, "destroy": 2},
		},
		{
			name: "tenant_action", address: "tenant_action.x",
			create: `resource "tenant_action" "x" {
  name               = "costs"
  code               = "exports.onExecutePostLogin = async () => {};"
  supported_triggers = { id = "post-login", version = "v3" }
}`,
			update: `resource "tenant_action" "x" {
  name               = "costs"
  code               = "exports.onExecutePostLogin = async () => { return; };"
  supported_triggers = { id = "post-login", version = "v3" }
}`,
			// A post-login action: its destroy lists no token exchange
			// profiles (only a custom-token-exchange action can back one);
			// its plan reads the trigger's bindings, to unbind the action
			// when this configuration's bindings drop it.
			budget: map[string]int64{"create": 3, "plan": 1, "update": 5, "import": 1, "destroy": 3},
		},
		{
			name: "tenant_trigger_actions", address: "tenant_trigger_actions.x", id: "post-login",
			create: fmt.Sprintf(`resource "tenant_trigger_actions" "x" {
  trigger = "post-login"
  actions = [{ id = %q, display_name = "Login" }]
}`, login.ID),
			update: fmt.Sprintf(`resource "tenant_trigger_actions" "x" {
  trigger = "post-login"
  actions = [{ id = %q, display_name = "Login, renamed" }]
}`, login.ID),
			// create: the plan reads what the trigger runs (to warn of what
			// the create unbinds) and the action (to refuse one the trigger
			// cannot bind), once in the plan and once in the apply's plan;
			// then one PATCH. An update reads only the actions new to the list.
			budget: map[string]int64{"create": 5, "plan": 1, "update": 2, "import": 1, "destroy": 2},
		},
		{
			name: "tenant_phone_provider", address: "tenant_phone_provider.x",
			create: `resource "tenant_phone_provider" "x" {
  name          = "custom"
  configuration = { delivery_methods = ["text"] }
}`,
			update: `resource "tenant_phone_provider" "x" {
  name          = "custom"
  configuration = { delivery_methods = ["text", "voice"] }
}`,
			// create: the plan lists the providers (a tenant has one), in the
			// plan and in the apply's plan.
			budget: map[string]int64{"create": 3, "plan": 1, "update": 2, "import": 2, "destroy": 2},
		},
	}
	provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	var table []string
	for _, tc := range cases {
		cli := acctest.NewCLI(t, map[string]string{"main.tf": provider + tc.create})
		counts := map[string]int64{}
		phase := func(name string, args ...string) string {
			emu.ResetStats()
			out, err := cli.Run(args...)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", tc.name, name, err, out)
			}
			st := emu.Stats()
			counts[name] = st.Total - st.ByRoute["POST /oauth/token"]
			return out
		}
		phase("create", "apply", "-auto-approve", "-input=false", "-no-color")
		phase("plan", "plan", "-input=false", "-no-color", "-detailed-exitcode")
		if tc.update != "" {
			cli.Write(t, "main.tf", provider+tc.update)
			phase("update", "apply", "-auto-approve", "-input=false", "-no-color")
		}
		id := tc.id
		if id == "" {
			out, err := cli.Run("state", "show", "-no-color", tc.address)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			id = attr(out, "id")
		}
		if out, err := cli.Run("state", "rm", tc.address); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		phase("import", "import", "-input=false", "-no-color", tc.address, id)
		phase("destroy", "destroy", "-auto-approve", "-input=false", "-no-color")
		var row []string
		for _, p := range []string{"create", "plan", "update", "import", "destroy"} {
			n, ok := counts[p]
			if !ok {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprint(n))
			if n > tc.budget[p] {
				t.Errorf("%s %s sent %d API requests, the budget is %d", tc.name, p, n, tc.budget[p])
			}
		}
		table = append(table, fmt.Sprintf("| %s | %s |", tc.name, strings.Join(row, " | ")))
	}
	sort.Strings(table)
	t.Logf("API requests per operation (token request apart):\n| resource | create | no-change plan | update | import | destroy |\n| --- | ---: | ---: | ---: | ---: | ---: |\n%s",
		strings.Join(table, "\n"))
}

// attr is the value of a top-level string attribute in `terraform state show` output.
func attr(show, name string) string {
	for _, line := range strings.Split(show, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.TrimSpace(k) == name {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	t.Parallel() // its own emulator and folders
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
	costsClient, err := c.CreateClient(ctx, mgmt.AppClient{Name: mgmt.Ptr("costs-m2m")})
	if err != nil {
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
		{
			name: "tenant_client", address: "tenant_client.x",
			create: `resource "tenant_client" "x" {
  name           = "costs"
  token_exchange = { allow_any_profile_of_type = ["custom_authentication"] }
}`,
			update: `resource "tenant_client" "x" {
  name            = "costs"
  oidc_conformant = true
  token_exchange  = { allow_any_profile_of_type = ["custom_authentication"] }
}`,
			// Its plan-time check reads nothing.
			budget: map[string]int64{"create": 1, "plan": 1, "update": 2, "import": 2, "destroy": 2},
		},
		{
			name: "tenant_client_grant", address: "tenant_client_grant.x",
			create: fmt.Sprintf(`resource "tenant_client_grant" "x" {
  client_id = %q
  audience  = "https://costs.example.com"
  scopes    = ["read"]
}`, costsClient.ClientID),
			update: fmt.Sprintf(`resource "tenant_client_grant" "x" {
  client_id = %q
  audience  = "https://costs.example.com"
  scopes    = ["read", "write"]
}`, costsClient.ClientID),
			// The create's plan looks the pair and the API up (twice:
			// plan and apply); an update of the scopes reads the API.
			budget: map[string]int64{"create": 5, "plan": 1, "update": 4, "import": 2, "destroy": 2},
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

// applyShapes are the ways a configuration writes n APIs and n token
// exchange profiles: one resource block per object (what `terraform query`
// generates for an adopted tenant), count and for_each.
var applyShapes = []struct {
	name   string
	config func(n int, action string) string
}{
	{"separate blocks", func(n int, action string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `
resource "tenant_resource_server" "api_%[1]d" {
  identifier = "https://api.example.com/costs/%[1]d"
  name       = "costs %[1]d"
  scopes     = { "read:x" = "Read" }
}

resource "tenant_token_exchange_profile" "p_%[1]d" {
  name               = "costs profile %[1]d"
  subject_token_type = "urn:costs:%[1]d"
  action_id          = %[2]q
}
`, i, action)
		}
		return b.String()
	}},
	{"count", func(n int, action string) string {
		return fmt.Sprintf(`
resource "tenant_resource_server" "api" {
  count      = %[1]d
  identifier = "https://api.example.com/costs/${count.index}"
  name       = "costs ${count.index}"
  scopes     = { "read:x" = "Read" }
}

resource "tenant_token_exchange_profile" "p" {
  count              = %[1]d
  name               = "costs profile ${count.index}"
  subject_token_type = "urn:costs:${count.index}"
  action_id          = %[2]q
}
`, n, action)
	}},
	{"for_each", func(n int, action string) string {
		return fmt.Sprintf(`
locals {
  keys = toset([for i in range(%[1]d) : tostring(i)])
}

resource "tenant_resource_server" "api" {
  for_each   = local.keys
  identifier = "https://api.example.com/costs/${each.key}"
  name       = "costs ${each.key}"
  scopes     = { "read:x" = "Read" }
}

resource "tenant_token_exchange_profile" "p" {
  for_each           = local.keys
  name               = "costs profile ${each.key}"
  subject_token_type = "urn:costs:${each.key}"
  action_id          = %[2]q
}
`, n, action)
	}},
}

// applyReadBudget is the most each read route may cost an apply of new APIs
// and profiles, whatever their number: one walk of each list (a page of up
// to 100 objects), the first two lookups of an API by identifier (direct,
// before a walk pays) and one read of the profiles' action, in the plan and
// again in the apply, where Terraform plans each object once more before
// it writes it.
var applyReadBudget = map[string]int64{
	"GET /api/v2/resource-servers":        2,
	"GET /api/v2/resource-servers/{id}":   4,
	"GET /api/v2/token-exchange-profiles": 2,
	"GET /api/v2/actions/actions/{id}":    2,
}

// TestRequestCosts_applyOfManyObjects applies n new APIs and n new token
// exchange profiles with `terraform apply -auto-approve`, written as
// separate resource blocks, with count and with for_each, at two sizes and
// three times each on the same tenant: the apply sends one create per
// object and reads that do not grow with n (applyReadBudget), the same
// requests route by route in every run and at both sizes.
func TestRequestCosts_applyOfManyObjects(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	for _, shape := range applyShapes {
		t.Run(strings.ReplaceAll(shape.name, " ", "_"), func(t *testing.T) {
			emu, err := emulator.Start(emulator.Options{Demo: true})
			if err != nil {
				t.Fatal(err)
			}
			defer emu.Close()
			provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
			var bySize []map[string]int64
			for _, n := range []int{10, 50} {
				cli := acctest.NewCLI(t, map[string]string{"main.tf": provider + shape.config(n, emu.Demo().ActionID)})
				var first map[string]int64
				for run := range 3 {
					emu.Reset()
					if err := os.Remove(filepath.Join(cli.Dir, "terraform.tfstate")); err != nil && !os.IsNotExist(err) {
						t.Fatal(err)
					}
					if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
						t.Fatalf("%d objects, run %d: %v\n%s", 2*n, run+1, err, out)
					}
					routes := emu.Stats().ByRoute
					delete(routes, "POST /oauth/token")
					t.Logf("%d APIs + %d profiles, run %d: %s", n, n, run+1, formatRoutes(routes))
					for route, count := range routes {
						switch {
						case route == "POST /api/v2/resource-servers" || route == "POST /api/v2/token-exchange-profiles":
							if count != int64(n) {
								t.Errorf("%d objects, run %d: %s sent %d times, want %d", 2*n, run+1, route, count, n)
							}
						case count > applyReadBudget[route]:
							t.Errorf("%d objects, run %d: %s sent %d times, the budget is %d", 2*n, run+1, route, count, applyReadBudget[route])
						}
					}
					if first == nil {
						first = routes
					} else if a, b := formatRoutes(first), formatRoutes(routes); a != b {
						t.Errorf("%d objects: run %d cost %s, run 1 cost %s", 2*n, run+1, b, a)
					}
				}
				reads := map[string]int64{}
				for route, count := range first {
					if strings.HasPrefix(route, "GET ") {
						reads[route] = count
					}
				}
				bySize = append(bySize, reads)
			}
			if a, b := formatRoutes(bySize[0]), formatRoutes(bySize[1]); a != b {
				t.Errorf("the reads grow with the objects: %s for 20, %s for 100", a, b)
			}
		})
	}
}

// formatRoutes is a request count by route, sorted by route.
func formatRoutes(routes map[string]int64) string {
	keys := make([]string, 0, len(routes))
	for k := range routes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, routes[k])
	}
	return strings.Join(parts, ", ")
}

// TestRequestCosts_scopeRemovalReadsRolesOncePerRun removes a scope from
// two APIs at once, three times, with `terraform apply`: the check of which
// roles hold a removed scope reads the tenant's roles and each role's
// permissions once per run (the plan, and the apply, where Terraform plans
// each API again), not once per API, and names the roles that hold it. A
// client that may not read roles is told once per run that the check was
// skipped, not once per API.
func TestRequestCosts_scopeRemovalReadsRolesOncePerRun(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const roles = 5
	config := func(scopes string) string {
		return fmt.Sprintf(`
resource "tenant_resource_server" "api" {
  count      = 2
  identifier = "https://api.example.com/holders/${count.index}"
  scopes     = %s
}
`, scopes)
	}
	both, writeOnly := `{ "read:x" = "Read", "write:x" = "Write" }`, `{ "write:x" = "Write" }`
	cli := acctest.NewCLI(t, map[string]string{"main.tf": acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + config(both)})
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	for i := range roles {
		r, err := c.CreateRole(ctx, mgmt.Role{Name: fmt.Sprintf("holder-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			pair := mgmt.Permission{ResourceServerIdentifier: fmt.Sprintf("https://api.example.com/holders/%d", i), PermissionName: "read:x"}
			if err := c.AddRolePermissions(ctx, r.ID, []mgmt.Permission{pair}); err != nil {
				t.Fatal(err)
			}
		}
	}
	provider := acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret())
	for run := range 3 {
		cli.Write(t, "main.tf", provider+config(both))
		if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Fatalf("run %d, adding the scope back: %v\n%s", run+1, err, out)
		}
		cli.Write(t, "main.tf", provider+config(writeOnly))
		emu.ResetStats()
		// -json: the human output folds warnings of one summary into one.
		// One object at a time, so that the first API's write comes before
		// the second API's check: a write that dropped the reads would show.
		out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color", "-json", "-parallelism=1")
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run+1, err, out)
		}
		routes := emu.Stats().ByRoute
		t.Logf("run %d: %s", run+1, formatRoutes(routes))
		// The plan and the apply each read the roles (one page) and each
		// role's permissions once.
		if got := routes["GET /api/v2/roles/{id}/permissions"]; got != 2*roles {
			t.Errorf("run %d: %d reads of roles' permissions, want %d (each role once in the plan and once in the apply)", run+1, got, 2*roles)
		}
		if got := routes["GET /api/v2/roles"]; got != 2 {
			t.Errorf("run %d: %d pages of roles, want 2", run+1, got)
		}
		for i := range 2 {
			if !strings.Contains(out, fmt.Sprintf("read:x: held by holder-%d", i)) {
				t.Errorf("run %d: no warning names holder-%d:\n%s", run+1, i, out)
			}
		}
	}

	// A client that may read and update APIs but not read roles.
	emu.AddClient(emulator.Client{ID: "no-roles", Secret: "no-roles-secret-0123",
		Scopes: []string{"read:resource_servers", "update:resource_servers"}})
	cli.Write(t, "main.tf", provider+config(both))
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("adding the scope back: %v\n%s", err, out)
	}
	cli.Write(t, "main.tf", acctest.ProviderHCL(emu.Domain(), "no-roles", "no-roles-secret-0123")+config(writeOnly))
	out, err := cli.Run("plan", "-input=false", "-no-color", "-json")
	if err != nil {
		t.Fatalf("plan with a client that may not read roles: %v\n%s", err, out)
	}
	if n := strings.Count(out, `"summary":"Plan-time check skipped"`); n != 1 {
		t.Fatalf("%d check-skipped warnings for two APIs, want 1:\n%s", n, out)
	}
}

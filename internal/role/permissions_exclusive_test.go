package role_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

const addr = "tenant_role_permissions.test"

// api creates an API defining n scopes p:000 ... and returns its identifier.
func api(t *testing.T, target *acctest.Target, n int) string {
	t.Helper()
	ident := "https://api.example.com/" + acctest.RandomName()
	scopes := make([]mgmt.ResourceServerScope, n)
	for i := range scopes {
		scopes[i] = mgmt.ResourceServerScope{Value: fmt.Sprintf("p:%03d", i), Description: fmt.Sprintf("Permission %d", i)}
	}
	rs, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident, Scopes: &scopes})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Client().DeleteResourceServer(context.Background(), rs.ID) })
	return ident
}

// checkAssigned compares the role's permissions in the API with want.
func checkAssigned(target *acctest.Target, roleID, ident string, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		perms, err := target.Client().RolePermissions(context.Background(), roleID)
		if err != nil {
			return err
		}
		var got []string
		for _, p := range perms {
			if p.ResourceServerIdentifier != ident {
				return fmt.Errorf("unexpected API %s", p.ResourceServerIdentifier)
			}
			got = append(got, p.PermissionName)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			return fmt.Errorf("role has %v, want %v", got, want)
		}
		return nil
	}
}

func checkNoPermissions(target *acctest.Target, roleID string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		perms, err := target.Client().RolePermissions(context.Background(), roleID)
		if err != nil && !mgmt.IsNotFound(err) {
			return err
		}
		if len(perms) != 0 {
			return fmt.Errorf("role %s still has %d permissions after destroy", roleID, len(perms))
		}
		return nil
	}
}

func TestAccRolePermissions_basic(t *testing.T) {
	// CLI work: a create planned empty (every walk's first step).
	acctest.CLIWorkDoneBy(t, "TestTransitions_rolePermissions")
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 3)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001")),
			Check:  checkAssigned(target, role.ID, ident, "p:000", "p:001"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(role.ID)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.MapExact(map[string]knownvalue.Check{
					ident: knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("p:000"), knownvalue.StringExact("p:001")}),
				})),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccRolePermissions_authoritativeCreate: a role that already holds
// other pairs holds exactly the configured ones after create, and the next
// plan is empty.
func TestAccRolePermissions_authoritativeCreate(t *testing.T) {
	// CLI work: a create planned empty (every walk's first step), and the
	// plan of a create on a role holding other pairs.
	acctest.CLIWorkDoneBy(t, "TestTransitions_rolePermissions", "TestAccRolePermissions_createWarnsAtPlan")
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 4)
	assign(t, target, role.ID, pair(ident, "p:001"), pair(ident, "p:003"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{{
			Config:           target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001")),
			Check:            checkAssigned(target, role.ID, ident, "p:000", "p:001"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func TestAccRolePermissions_update(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 4)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001")), Check: checkAssigned(target, role.ID, ident, "p:000", "p:001")},
			{
				Config:           target.Config(testAccPermissions(role.ID, ident, "p:001", "p:002", "p:003")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				Check:            checkAssigned(target, role.ID, ident, "p:001", "p:002", "p:003"),
			},
			{
				// The same names in another order: no change.
				Config:           target.Config(testAccPermissions(role.ID, ident, "p:003", "p:001", "p:002")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRolePermissions_twoAPIs: permissions are keyed by API, so a name
// added to or removed from one API plans as that API's key only and leaves
// the other API's pairs alone; removing an API's key removes its pairs.
func TestAccRolePermissions_twoAPIs(t *testing.T) {
	target := acctest.NewTarget(t)
	role, a, b := target.Role(t), api(t, target, 3), api(t, target, 3)
	cfg := func(namesA, namesB []string) string {
		entries := map[string][]string{a: namesA}
		if namesB != nil {
			entries[b] = namesB
		}
		return target.Config(testAccPermissionsOn(role.ID, entries))
	}
	step := func(namesA, namesB []string, changed ...string) resource.TestStep {
		return resource.TestStep{
			Config: cfg(namesA, namesB),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				acctest.ExpectMapKeysChanged(addr, "permissions", changed...),
			}},
			Check: checkHeld(target, role.ID, namesA, a, namesB, b),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: cfg([]string{"p:000", "p:001"}, []string{"p:000"}), Check: checkHeld(target, role.ID, []string{"p:000", "p:001"}, a, []string{"p:000"}, b)},
			step([]string{"p:000", "p:001", "p:002"}, []string{"p:000"}, a),
			step([]string{"p:000", "p:002"}, []string{"p:000"}, a),
			step([]string{"p:000", "p:002"}, []string{"p:000", "p:001"}, b),
			step([]string{"p:000", "p:002"}, nil, b),
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateId: role.ID},
		},
	})
}

// checkHeld compares the role's pairs in the API with the names given for
// each API identifier.
func checkHeld(target *acctest.Target, roleID string, namesA []string, a string, namesB []string, b string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		perms, err := target.Client().RolePermissions(context.Background(), roleID)
		if err != nil {
			return err
		}
		var got, want []string
		for _, p := range perms {
			got = append(got, p.ResourceServerIdentifier+" "+p.PermissionName)
		}
		for _, n := range namesA {
			want = append(want, a+" "+n)
		}
		for _, n := range namesB {
			want = append(want, b+" "+n)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			return fmt.Errorf("role holds %v, want %v", got, want)
		}
		return nil
	}
}

func TestAccRolePermissions_drift(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 3)
	cfg := target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					ctx, c := context.Background(), target.Client()
					if err := c.AddRolePermissions(ctx, role.ID, []mgmt.Permission{{ResourceServerIdentifier: ident, PermissionName: "p:002"}}); err != nil {
						return err
					}
					return c.RemoveRolePermissions(ctx, role.ID, []mgmt.Permission{{ResourceServerIdentifier: ident, PermissionName: "p:000"}})
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					acctest.ExpectMapKeysChanged(addr, "permissions", ident),
				}},
			},
			{
				Config:           cfg,
				Check:            checkAssigned(target, role.ID, ident, "p:000", "p:001"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRolePermissions_removalFails: an update adds before it removes, so
// when the removal fails the role still holds every pair it needs (kept, old
// and new); nothing is lost, and the next apply finishes the job.
func TestAccRolePermissions_removalFails(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	role, ident := target.Role(t), api(t, target, 3)
	final := target.Config(testAccPermissions(role.ID, ident, "p:001", "p:002"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001"))},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{Routes: map[string]int{"DELETE /api/v2/roles/{id}/permissions": 400}})
				},
				Config:      final,
				ExpectError: acctest.ExpectError(`Unable to remove role permissions.*Removing 1 permissions from role`),
			},
			{
				PreConfig:          func() { emu.SetFaults(emulator.Faults{}) },
				RefreshState:       true,
				Check:              checkAssigned(target, role.ID, ident, "p:000", "p:001", "p:002"),
				ExpectNonEmptyPlan: true,
				RefreshPlanChecks: resource.RefreshPlanChecks{PostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{Config: final, Check: checkAssigned(target, role.ID, ident, "p:001", "p:002")},
		},
	})
}

func TestAccRolePermissions_disappears(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{{
			// The role is deleted outside Terraform: the refresh drops the
			// permissions, and the plan to create them again is refused, since
			// the role they name no longer exists.
			Config:      target.Config(testAccPermissions(role.ID, ident, "p:000")),
			Check:       func(*terraform.State) error { return target.Client().DeleteRole(context.Background(), role.ID) },
			ExpectError: acctest.ExpectError(`Unable to assign role permissions.*No role with id "` + role.ID + `" exists in the tenant`),
		}},
	})
}

func TestAccRolePermissions_import(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001"))},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateId: role.ID},
			{ResourceName: addr, ImportState: true, ImportStateId: "rol_doesnotexist0000", ExpectError: acctest.ExpectError(`Cannot import non-existent remote object`)},
		},
	})
}

// TestAccRolePermissions_importRefused: import IDs the provider refuses from
// the ID alone.
func TestAccRolePermissions_importRefused(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 1)
	cfg := target.Config(testAccPermissions(role.ID, ident, "p:000"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			acctest.ImportRefused(cfg, addr, "..", `The import ID ".." for tenant_role_permissions must not be "." or ".."`),
			acctest.ImportRefused(cfg, addr, role.ID+"/users", `The import ID "`+role.ID+`/users" for tenant_role_permissions is not a role id`),
		},
	})
}

// TestAccRolePermissions_500 assigns, reads (5 pages) and removes 500
// permissions on one role.
func TestAccRolePermissions_500(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 500)
	cfg := func(n int) string {
		return target.Config(fmt.Sprintf(`
resource "tenant_role_permissions" "test" {
  role_id = %[1]q
  permissions = {
    %[2]q = [for i in range(%[3]d) : format("p:%%03d", i)]
  }
}
`, role.ID, ident, n))
	}
	all := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("p:%03d", i)
		}
		return out
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{
				Config:            cfg(500),
				Check:             checkAssigned(target, role.ID, ident, all(500)...),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("permissions"), knownvalue.MapExact(map[string]knownvalue.Check{ident: knownvalue.SetSizeExact(500)}))},
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: cfg(250), Check: checkAssigned(target, role.ID, ident, all(250)...)},
		},
	})
}

func TestAccRolePermissions_validation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = null }", `Null Map Value.*This attribute contains a null value`},
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = [\"p\", null] }", `Null Set Value.*This attribute contains a null value`},
		{`role_id = "rol_x"` + "\n  permissions = {}", `Attribute permissions map must contain at least 1 elements, got: 0`},
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = [] }", `Attribute permissions\["https://a"\] set must contain at least 1 elements and at most 1000 elements, got: 0`},
		{`role_id = ""` + "\n  permissions = { \"https://a\" = [\"p\"] }", `Attribute role_id must be a role id: rol_ followed by letters and digits, got: `},
		{`role_id = ".."` + "\n  permissions = { \"https://a\" = [\"p\"] }", `Attribute role_id must be a role id: rol_ followed by letters and digits`},
		{`role_id = "."` + "\n  permissions = { \"https://a\" = [\"p\"] }", `Attribute role_id must be a role id: rol_ followed by letters and digits`},
		{`role_id = "rol_x"` + "\n  permissions = { \"\" = [\"p\"] }", `Attribute permissions\[""\] UTF-8 character count must be between 1 and 600, got: 0`},
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = [\"\"] }", `UTF-8 character count must be between 1 and 280, got: 0`},
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = [\"" + strings.Repeat("ü", 281) + "\"] }", `UTF-8 character count must be between 1 and 280, got: 281`},
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = [\"read orders\"] }", `must not contain white space.*got: read orders`},
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = [for i in range(600) : \"a:${i}\"], \"https://b\" = [for i in range(401) : \"b:${i}\"] }",
			`Attribute permissions holds 1001 permissions in all; a role holds at most 1000`},
		{`role_id = "rol_x"` + "\n  permissions = { \"https://a\" = [for i in range(1001) : \"a:${i}\"] }", `set must contain at least 1 elements and at most 1000 elements, got: 1001`},
		{`role_id = "rol_x"`, `The argument "permissions" is required`},
	} {
		cases = append(cases, acctest.PlanError{Config: "resource \"tenant_role_permissions\" \"test\" {\n  " + tc.body + "\n}", Want: tc.want})
	}
	target.ExpectPlanErrors(t, cases)
}

// TestAccRolePermissions_unknownPair: a scope the API does not define is
// refused by the tenant after the wait for the apply's API writes (a
// resource of the run may add it), or assigned, as the tenant may (the
// reference does not say); an API the tenant does not hold takes the same
// path (TestAccRolePermission_apiErrors).
func TestAccRolePermissions_unknownPair(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	for _, answer := range []string{"refuse", "accept"} {
		t.Run(answer, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{UndefinedScope: answer}})
			role, ident := target.Role(t), api(t, target, 1)
			step := resource.TestStep{Config: target.Config(testAccPermissions(role.ID, ident, "undefined:scope"))}
			if answer == "refuse" {
				step.ExpectError = acctest.ExpectError(`Permission 'undefined:scope' is not defined on resource server '` + ident + `'`)
			} else {
				step.Check = checkAssigned(target, role.ID, ident, "undefined:scope")
				step.ConfigPlanChecks = resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             checkNoPermissions(target, role.ID),
				Steps: []resource.TestStep{
					step,
					{Config: target.Config(testAccPermissions("rol_doesnotexist0000", ident, "p:000")),
						ExpectError: acctest.ExpectError(`Unable to assign role permissions.*No role with id "rol_doesnotexist0000" exists in the tenant`)},
				},
			})
		})
	}
}

// TestAccRolePermissions_scopeTheConfigurationLeavesOut: a permission of an
// API of the configuration whose scopes leave it out plans with a warning,
// not an error, and the apply meets the tenant's answer: a refusal (at once:
// no write of the run will add the scope), or the pair assigned and held.
func TestAccRolePermissions_scopeTheConfigurationLeavesOut(t *testing.T) {
	for _, answer := range []string{"refuse", "accept"} {
		t.Run(answer, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{UndefinedScope: answer}})
			role, ident := target.Role(t), "https://api.example.com/"+acctest.RandomName()
			step := resource.TestStep{Config: target.Config(fmt.Sprintf(`
resource "tenant_resource_server" "a" {
  identifier = %[1]q
  scopes     = { "read:a" = "" }
}

resource "tenant_role_permissions" "test" {
  role_id     = %[2]q
  permissions = { (tenant_resource_server.a.identifier) = ["read:a", "write:a"] }
}
`, ident, role.ID))}
			if answer == "refuse" {
				step.ExpectError = acctest.ExpectError(`Unable to assign role permissions.*Permission 'write:a' is not defined on resource server`)
			} else {
				step.Check = checkAssigned(target, role.ID, ident, "read:a", "write:a")
				step.ConfigPlanChecks = resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             checkNoPermissions(target, role.ID),
				Steps:                    []resource.TestStep{step},
			})
		})
	}
}

func TestAccRoleDataSource_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	role := target.Role(t)
	cfg := fmt.Sprintf(`
data "tenant_role" "by_name" {
  name = %[1]q
}

data "tenant_role" "by_id" {
  id = data.tenant_role.by_name.id
}
`, role.Name)
	var checks []statecheck.StateCheck
	for _, a := range []string{"id", "name", "description"} {
		checks = append(checks, statecheck.CompareValuePairs("data.tenant_role.by_name", tfjsonpath.New(a), "data.tenant_role.by_id", tfjsonpath.New(a), compare.ValuesSame()))
	}
	checks = append(checks,
		statecheck.ExpectKnownValue("data.tenant_role.by_name", tfjsonpath.New("id"), knownvalue.StringExact(role.ID)),
		statecheck.ExpectKnownValue("data.tenant_role.by_name", tfjsonpath.New("description"), knownvalue.StringExact("acceptance test role")))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{PlanOnly: true, Config: target.Config(fmt.Sprintf("\ndata \"tenant_role\" \"x\" {\n  name = %q\n}\n", strings.ToUpper(role.Name))),
				ExpectError: acctest.ExpectError(`No role is named exactly`)},
			{PlanOnly: true, Config: target.Config("\ndata \"tenant_role\" \"x\" {\n  id = \"rol_nope\"\n}\n"), ExpectError: acctest.ExpectError(`No role has the id "rol_nope"`)},
			{Config: target.Config(cfg), ConfigStateChecks: checks},
		},
	})
}

func testAccPermissions(roleID, ident string, names ...string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return fmt.Sprintf(`
resource "tenant_role_permissions" "test" {
  role_id = %[1]q
  permissions = {
    %[2]q = [%[3]s]
  }
}
`, roleID, ident, strings.Join(quoted, ", "))
}

// testAccPermissionsOn is a tenant_role_permissions with names per API.
func testAccPermissionsOn(roleID string, names map[string][]string) string {
	var b strings.Builder
	for _, ident := range slices.Sorted(maps.Keys(names)) {
		quoted := make([]string, len(names[ident]))
		for i, n := range names[ident] {
			quoted[i] = fmt.Sprintf("%q", n)
		}
		fmt.Fprintf(&b, "    %q = [%s]\n", ident, strings.Join(quoted, ", "))
	}
	return fmt.Sprintf(`
resource "tenant_role_permissions" "test" {
  role_id = %[1]q
  permissions = {
%[2]s  }
}
`, roleID, b.String())
}

func TestAccRolePermissions_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: acctest.IdentitySteps(target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001")), addr, map[string]knownvalue.Check{
			"role_id": knownvalue.StringExact(role.ID),
		}),
	})
}

// TestAccRoleDataSource_nameFilter: the look-up by name finds the role of
// exactly that name, among roles whose names hold it at their start or
// inside, whether the tenant's name_filter matches a part of the name, its
// start or the whole name (the reference does not say); a name that only
// longer names hold is no match.
func TestAccRoleDataSource_nameFilter(t *testing.T) {
	// CLI work: the data source by name, read and refused at plan.
	acctest.CLIWorkDoneBy(t, "TestAccRoleDataSource_basic")
	for _, answer := range []string{"substring", "prefix", "exact"} {
		t.Run(answer, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{RoleNameFilter: answer}})
			name := acctest.RandomName()
			var exact string
			for _, n := range []string{name + "-longer", "x-" + name, name, name + "-z"} {
				r, err := target.Client().CreateRole(context.Background(), mgmt.Role{Name: n})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = target.Client().DeleteRole(context.Background(), r.ID) })
				if n == name {
					exact = r.ID
				}
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				Steps: []resource.TestStep{
					{PlanOnly: true, Config: target.Config(fmt.Sprintf("\ndata \"tenant_role\" \"x\" {\n  name = %q\n}\n", name[:len(name)-1])),
						ExpectError: acctest.ExpectError(`No role is named exactly`)},
					{Config: target.Config(fmt.Sprintf("\ndata \"tenant_role\" \"x\" {\n  name = %q\n}\n", name)),
						ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("data.tenant_role.x", tfjsonpath.New("id"), knownvalue.StringExact(exact))}},
				},
			})
		})
	}
}

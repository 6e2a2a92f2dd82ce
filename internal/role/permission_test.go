package role_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
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

const pairAddr = "tenant_role_permission.test"

func pair(ident, name string) mgmt.Permission {
	return mgmt.Permission{ResourceServerIdentifier: ident, PermissionName: name}
}

func assign(t *testing.T, target *acctest.Target, roleID string, pairs ...mgmt.Permission) {
	t.Helper()
	if err := target.Client().AddRolePermissions(context.Background(), roleID, pairs); err != nil {
		t.Fatal(err)
	}
}

func TestAccRolePermission_basic(t *testing.T) {
	// CLI work: one pair created and planned empty (every walk's first
	// step).
	acctest.CLIWorkDoneBy(t, "TestTransitions_rolePermission")
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 3)
	// A pair assigned outside Terraform stays through create and destroy.
	assign(t, target, role.ID, pair(ident, "p:002"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkAssigned(target, role.ID, ident, "p:002"),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000")),
			Check:  checkAssigned(target, role.ID, ident, "p:000", "p:002"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(pairAddr, tfjsonpath.New("id"), knownvalue.StringExact(role.ID+"::"+ident+"::p:000")),
				statecheck.ExpectKnownValue(pairAddr, tfjsonpath.New("role_id"), knownvalue.StringExact(role.ID)),
				statecheck.ExpectKnownValue(pairAddr, tfjsonpath.New("resource_server_identifier"), knownvalue.StringExact(ident)),
				statecheck.ExpectKnownValue(pairAddr, tfjsonpath.New("permission_name"), knownvalue.StringExact("p:000")),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccRolePermission_replace: every argument replaces the pair; the old
// pair is removed and the new one assigned.
func TestAccRolePermission_replace(t *testing.T) {
	target := acctest.NewTarget(t)
	role, other, ident, second := target.Role(t), target.Role(t), api(t, target, 2), api(t, target, 2)
	differ := statecheck.CompareValue(compare.ValuesDiffer())
	replace := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(pairAddr, plancheck.ResourceActionDestroyBeforeCreate),
	}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000")),
				ConfigStateChecks: []statecheck.StateCheck{differ.AddStateValue(pairAddr, tfjsonpath.New("id"))},
			},
			{
				Config:            target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:001")),
				ConfigPlanChecks:  replace,
				Check:             checkAssigned(target, role.ID, ident, "p:001"),
				ConfigStateChecks: []statecheck.StateCheck{differ.AddStateValue(pairAddr, tfjsonpath.New("id"))},
			},
			{
				Config:           target.Config(testAccPermissionConfig_pair(other.ID, ident, "p:001")),
				ConfigPlanChecks: replace,
				Check: resource.ComposeTestCheckFunc(
					checkAssigned(target, role.ID, ident),
					checkAssigned(target, other.ID, ident, "p:001"),
				),
				ConfigStateChecks: []statecheck.StateCheck{differ.AddStateValue(pairAddr, tfjsonpath.New("id"))},
			},
			{
				// The same permission name on another API: the role holds
				// that pair alone (checkAssigned refuses a pair of ident).
				Config:            target.Config(testAccPermissionConfig_pair(other.ID, second, "p:001")),
				ConfigPlanChecks:  replace,
				Check:             checkAssigned(target, other.ID, second, "p:001"),
				ConfigStateChecks: []statecheck.StateCheck{differ.AddStateValue(pairAddr, tfjsonpath.New("id"))},
			},
		},
	})
}

func TestAccRolePermission_import(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	id := role.ID + "::" + ident + "::p:000"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000"))},
			{ResourceName: pairAddr, ImportState: true, ImportStateVerify: true},
			{ResourceName: pairAddr, ImportState: true, ImportStateVerify: true, ImportStateId: id},
		},
	})
}

// TestAccRolePermission_importRefused: import IDs the provider refuses, from
// the ID alone or from one read of the role's permissions. The role holds
// p:000, assigned through the API: each import runs in a folder of its own
// and needs only the configuration, not an applied pair.
func TestAccRolePermission_importRefused(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	assign(t, target, role.ID, pair(ident, "p:000"))
	cfg := target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000"))
	importErr := func(id, want string) resource.TestStep { return acctest.ImportRefused(cfg, pairAddr, id, want) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			importErr(role.ID, `The import ID "`+role.ID+`" for tenant_role_permission does not have three parts separated by "::". `+
				`Use <role_id>::<resource_server_identifier>::<permission_name>`),
			importErr(role.ID+"::"+ident, `does not have three parts separated by "::"`),
			importErr("::"+ident+"::p:000", `has an empty role id`),
			importErr("..::"+ident+"::p:000", `has a role id that is not one`),
			importErr("rol_x/y::"+ident+"::p:000", `has a role id that is not one`),
			importErr(role.ID+"::::p:000", `has an empty resource server identifier`),
			importErr(role.ID+"::"+ident+"::", `has an empty permission name`),
			importErr("..", `The import ID ".." for tenant_role_permission must not be "." or ".."`),
			importErr(role.ID+"::"+ident+"::p:001", `The role "`+role.ID+`" does not hold the permission "p:001" on "`+
				regexp.QuoteMeta(ident)+`" \(it holds 1: p:000 on `+regexp.QuoteMeta(ident)+`\)`),
			importErr("rol_doesnotexist0000::"+ident+"::p:000", `No role has the id "rol_doesnotexist0000"`),
		},
	})
}

// TestAccRolePermission_drift: a pair removed outside Terraform is removed
// from the state, and the next apply assigns it again.
func TestAccRolePermission_drift(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	cfg := target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(*terraform.State) error {
					return target.Client().RemoveRolePermissions(context.Background(), role.ID, []mgmt.Permission{pair(ident, "p:000")})
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pairAddr, plancheck.ResourceActionCreate),
				}},
			},
			{
				Config:           cfg,
				Check:            checkAssigned(target, role.ID, ident, "p:000"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRolePermission_roleDisappears: the role deleted outside Terraform
// takes the pair out of the state; with the role also in the configuration,
// the next apply creates both again.
func TestAccRolePermission_roleDisappears(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := api(t, target, 1)
	name := acctest.RandomName()
	cfg := target.Config(testAccRoleConfig_name(name) + testAccPermissionConfig_ofRole(ident, "p:000"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					return target.Client().DeleteRole(context.Background(), s.RootModule().Resources[roleAddr].Primary.ID)
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(roleAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(pairAddr, plancheck.ResourceActionCreate),
				}},
			},
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					return checkAssigned(target, s.RootModule().Resources[roleAddr].Primary.ID, ident, "p:000")(s)
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRolePermission_parallel: twenty pairs of one role, created and
// destroyed in parallel, one request each, with no refusal.
func TestAccRolePermission_parallel(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	role, ident := target.Role(t), api(t, target, 20)
	all := make([]string, 20)
	for i := range all {
		all[i] = fmt.Sprintf("p:%03d", i)
	}
	const post = "POST /api/v2/roles/{id}/permissions"
	const del = "DELETE /api/v2/roles/{id}/permissions"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if n := emu.Stats().ByRoute[del]; n != 20 {
				return fmt.Errorf("%d removals for 20 pairs", n)
			}
			return checkNoPermissions(target, role.ID)(s)
		},
		Steps: []resource.TestStep{{
			PreConfig: emu.ResetStats,
			Config:    target.Config(testAccPermissionConfig_count(role.ID, ident, 20)),
			Check: resource.ComposeTestCheckFunc(
				checkAssigned(target, role.ID, ident, all...),
				func(*terraform.State) error {
					st := emu.Stats()
					if n := st.ByRoute[post]; n != 20 {
						return fmt.Errorf("%d assignments for 20 pairs", n)
					}
					for status, n := range st.ByStatus {
						if status[0] != '2' {
							return fmt.Errorf("%d answers %s", n, status)
						}
					}
					return nil
				},
			),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccRolePermission_samePairTwice documents two instances of one pair:
// both apply (assigning a held pair changes nothing); destroying one
// removes the pair, and the other assigns it again on the next apply.
func TestAccRolePermission_samePairTwice(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 1)
	two := target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000") + testAccPermissionConfig_second(role.ID, ident, "p:000"))
	one := target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: two, Check: checkAssigned(target, role.ID, ident, "p:000")},
			{
				Config:             one,
				Check:              checkAssigned(target, role.ID, ident),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(pairAddr, plancheck.ResourceActionCreate),
				}},
			},
			{
				Config:           one,
				Check:            checkAssigned(target, role.ID, ident, "p:000"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRolePermission_heldPair: a pair the role already holds (assigned
// outside Terraform, or by a second instance of the configuration) is
// created whether the tenant accepts it again or answers 409 (the
// reference does not say).
func TestAccRolePermission_heldPair(t *testing.T) {
	for _, answer := range []string{"accept", "conflict"} {
		t.Run(answer, func(t *testing.T) {
			target := acctest.NewTargetWith(t, emulator.Options{Assume: emulator.Assumptions{HeldPermission: answer}})
			role, ident := target.Role(t), api(t, target, 2)
			assign(t, target, role.ID, pair(ident, "p:000"))
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories,
				CheckDestroy:             checkNoPermissions(target, role.ID),
				Steps: []resource.TestStep{
					{
						Config:           target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000")),
						Check:            checkAssigned(target, role.ID, ident, "p:000"),
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					},
					{
						Config: target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000") + testAccPermissionConfig_second(role.ID, ident, "p:000")),
						Check:  checkAssigned(target, role.ID, ident, "p:000"),
					},
				},
			})
		})
	}
}

// TestAccRolePermission_withRole: the role id is unknown at plan time.
func TestAccRolePermission_withRole(t *testing.T) {
	target := acctest.NewTarget(t)
	ident := api(t, target, 2)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone("tenant_role", getRole),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccRoleConfig_name(name) + testAccPermissionConfig_ofRole(ident, "p:001")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs(roleAddr, tfjsonpath.New("id"), pairAddr, tfjsonpath.New("role_id"), compare.ValuesSame()),
			},
			Check: func(s *terraform.State) error {
				return checkAssigned(target, s.RootModule().Resources[roleAddr].Primary.ID, ident, "p:001")(s)
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccRolePermission_multiByteBounds: an identifier of 600 and a
// permission name of 280 multi-byte characters (the API counts characters).
func TestAccRolePermission_multiByteBounds(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	role := target.Role(t)
	prefix := "https://api.example.com/" + acctest.RandomName() + "/"
	ident := prefix + strings.Repeat("é", 600-len(prefix))
	name := strings.Repeat("ü", 280)
	scopes := []mgmt.ResourceServerScope{{Value: name}}
	rs, err := target.Client().CreateResourceServer(context.Background(), mgmt.ResourceServer{Identifier: ident, Scopes: &scopes})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Client().DeleteResourceServer(context.Background(), rs.ID) })
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{
				Config:           target.Config(testAccPermissionConfig_pair(role.ID, ident, name)),
				Check:            checkAssigned(target, role.ID, ident, name),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: pairAddr, ImportState: true, ImportStateVerify: true},
		},
	})
}

// TestAccRolePermission_validation: every bound is refused before any
// request, with two- and three-byte characters at the length bounds.
func TestAccRolePermission_validation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	body := func(role, ident, name string) string {
		return fmt.Sprintf("role_id = %q\n  resource_server_identifier = %q\n  permission_name = %q", role, ident, name)
	}
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{body("", "https://a", "p"), `Attribute role_id must be a role id: rol_ followed by letters and digits, got: `},
		{body(".", "https://a", "p"), `Attribute role_id must be a role id: rol_ followed by letters and digits`},
		{body("..", "https://a", "p"), `Attribute role_id must be a role id: rol_ followed by letters and digits`},
		{body("rol_x", "", "p"), `Attribute resource_server_identifier UTF-8 character count must be between 1 and 600, got: 0`},
		{body("rol_x", strings.Repeat("é", 601), "p"), `Attribute resource_server_identifier UTF-8 character count must be between 1 and 600, got: 601`},
		{body("rol_x", strings.Repeat("日", 601), "p"), `Attribute resource_server_identifier UTF-8 character count must be between 1 and 600, got: 601`},
		{body("rol_x", "https://a", ""), `Attribute permission_name UTF-8 character count must be between 1 and 280, got: 0`},
		{body("rol_x", "https://a", strings.Repeat("ü", 281)), `Attribute permission_name UTF-8 character count must be between 1 and 280, got: 281`},
		{body("rol_x", "https://a", strings.Repeat("日", 281)), `Attribute permission_name UTF-8 character count must be between 1 and 280, got: 281`},
		{`role_id = "rol_x"` + "\n  permission_name = \"p\"", `The argument "resource_server_identifier" is required`},
		{`role_id = "rol_x"` + "\n  resource_server_identifier = \"https://a\"", `The argument "permission_name" is required`},
		{`resource_server_identifier = "https://a"` + "\n  permission_name = \"p\"", `The argument "role_id" is required`},
	} {
		cases = append(cases, acctest.PlanError{Config: "resource \"tenant_role_permission\" \"test\" {\n  " + tc.body + "\n}", Want: tc.want})
	}
	target.ExpectPlanErrors(t, cases)
}

// TestAccRolePermission_apiErrors: the tenant's refusals reach the user. An
// API the tenant does not hold is refused after the wait for the apply's
// API writes (a resource of the run may create it); an undefined scope
// takes the same path (TestAccRolePermissions_unknownPair).
func TestAccRolePermission_apiErrors(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	role, ident := target.Role(t), api(t, target, 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{
				Config:      target.Config(testAccPermissionConfig_pair(role.ID, "https://no-such-api.example.com/", "p:000")),
				ExpectError: acctest.ExpectError(`Unable to assign role permission.*The resource server does not exist: 'https://no-such-api.example.com/'`),
			},
			{
				Config:      target.Config(testAccPermissionConfig_pair("rol_doesnotexist0000", ident, "p:000")),
				ExpectError: acctest.ExpectError(`Unable to assign role permissions.*No role with id "rol_doesnotexist0000" exists in the tenant`),
			},
			{Config: target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000"))},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{Routes: map[string]int{"GET /api/v2/roles/{id}/permissions": 403}})
				},
				Config:      target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000")),
				ExpectError: acctest.ExpectError(`Unable to read role permission.*Reading the permissions of role "` + role.ID + `" failed.*403`),
			},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{Routes: map[string]int{"DELETE /api/v2/roles/{id}/permissions": 400}})
				},
				Config:      target.Config(" "),
				ExpectError: acctest.ExpectError(`Unable to remove role permission.*Removing the permission p:000 on ` + ident + ` from role "` + role.ID + `" failed.*400`),
			},
			{
				PreConfig: func() { emu.SetFaults(emulator.Faults{}) },
				Config:    target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:000")),
				Check:     checkAssigned(target, role.ID, ident, "p:000"),
			},
		},
	})
}

// TestAccRolePermission_mixedUseWarns runs terraform plan on a configuration
// that manages one role with both types and reads the warning in its output,
// naming the role and both types, once.
func TestAccRolePermission_mixedUseWarns(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.Config(testAccPermissionConfig_mixed(role.ID, ident))})
	out, err := cli.Run("plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	want := "Warning: Role permissions managed by two resource types"
	if strings.Count(flat, want) != 1 {
		t.Fatalf("want the warning once in the plan output:\n%s", out)
	}
	for _, s := range []string{fmt.Sprintf("The permissions of role %q are managed by both tenant_role_permissions and tenant_role_permission", role.ID), "never settles"} {
		if !strings.Contains(flat, s) {
			t.Fatalf("the warning lacks %q:\n%s", s, out)
		}
	}
	// A role created in the same apply: its id is unknown at plan time, so
	// the warning comes from the apply.
	name := acctest.RandomName()
	cli = acctest.NewCLI(t, map[string]string{"main.tf": target.Config(testAccRoleConfig_name(name) + testAccPermissionConfig_mixedOfRole(ident))})
	if out, err := cli.Run("plan", "-input=false", "-no-color"); err != nil || strings.Contains(out, "two resource types") {
		t.Fatalf("plan with an unknown role id: %v\n%s", err, out)
	}
	out, err = cli.Run("apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil || strings.Count(strings.Join(strings.Fields(out), " "), want) != 1 {
		t.Fatalf("apply with the role id known at apply time: want the warning once: %v\n%s", err, out)
	}
	if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, out)
	}

	other := target.Role(t)
	cli = acctest.NewCLI(t, map[string]string{"main.tf": target.Config(
		testAccPermissions(role.ID, ident, "p:000") + testAccPermissionConfig_pair(other.ID, ident, "p:001"))})
	if out, err := cli.Run("plan", "-input=false", "-no-color"); err != nil || strings.Contains(out, "two resource types") {
		t.Fatalf("two roles, one type each: %v\n%s", err, out)
	}
}

func testAccPermissionConfig_pair(roleID, ident, name string) string {
	return fmt.Sprintf(`
resource "tenant_role_permission" "test" {
  role_id                    = %[1]q
  resource_server_identifier = %[2]q
  permission_name            = %[3]q
}
`, roleID, ident, name)
}

func testAccPermissionConfig_second(roleID, ident, name string) string {
	return fmt.Sprintf(`
resource "tenant_role_permission" "second" {
  role_id                    = %[1]q
  resource_server_identifier = %[2]q
  permission_name            = %[3]q
}
`, roleID, ident, name)
}

func testAccPermissionConfig_ofRole(ident, name string) string {
	return fmt.Sprintf(`
resource "tenant_role_permission" "test" {
  role_id                    = tenant_role.test.id
  resource_server_identifier = %[1]q
  permission_name            = %[2]q
}
`, ident, name)
}

func testAccPermissionConfig_count(roleID, ident string, n int) string {
	return fmt.Sprintf(`
resource "tenant_role_permission" "test" {
  count                      = %[3]d
  role_id                    = %[1]q
  resource_server_identifier = %[2]q
  permission_name            = format("p:%%03d", count.index)
}
`, roleID, ident, n)
}

func testAccPermissionConfig_mixed(roleID, ident string) string {
	return testAccPermissions(roleID, ident, "p:000") + testAccPermissionConfig_pair(roleID, ident, "p:001")
}

func testAccPermissionConfig_mixedOfRole(ident string) string {
	return fmt.Sprintf(`
resource "tenant_role_permissions" "test" {
  role_id     = tenant_role.test.id
  permissions = { %[1]q = ["p:000"] }
}
`, ident) + testAccPermissionConfig_ofRole(ident, "p:001")
}

func TestAccRolePermission_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: acctest.IdentitySteps(target.Config(testAccPermissionConfig_pair(role.ID, ident, "p:001")), pairAddr, map[string]knownvalue.Check{
			"role_id":                    knownvalue.StringExact(role.ID),
			"resource_server_identifier": knownvalue.StringExact(ident),
			"permission_name":            knownvalue.StringExact("p:001"),
		}),
	})
}

// TestAccRolePermission_hostileIdentity: an identity whose values would
// name another pair if joined and split, or change the route, is refused
// before any request.
func TestAccRolePermission_hostileIdentity(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 1)
	before := target.Requests()
	config := func(roleID, identifier string) string {
		return target.Config(fmt.Sprintf(`
import {
  to       = tenant_role_permission.x
  identity = { role_id = %[1]q, resource_server_identifier = %[2]q, permission_name = "p:000" }
}

resource "tenant_role_permission" "x" {
  role_id                    = %[3]q
  resource_server_identifier = %[4]q
  permission_name            = "p:000"
}
`, roleID, identifier, role.ID, ident))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		Steps: []resource.TestStep{
			{Config: config(role.ID+"::urn:adv", "split"), PlanOnly: true, ExpectError: acctest.ExpectError(`Invalid import identity.*is not a role id`)},
			{Config: config("rol_x::zzz", ident), PlanOnly: true, ExpectError: acctest.ExpectError(`Invalid import identity.*is not a role id`)},
		},
	})
	if n := target.Requests() - before; target.Emulator != nil && n != 0 {
		t.Fatalf("%d requests sent for identities refused before any", n)
	}
}

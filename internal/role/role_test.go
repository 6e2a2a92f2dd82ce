package role_test

import (
	"context"
	"fmt"
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
	"github.com/tenant-iac/terraform-provider-tenant/internal/role"
)

const roleAddr = "tenant_role.test"

func getRole(ctx context.Context, c *mgmt.Client, id string) error {
	_, err := c.GetRole(ctx, id)
	return err
}

// checkRole compares the role as the API holds it with name and description.
func checkRole(target *acctest.Target, name, description string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id := s.RootModule().Resources[roleAddr].Primary.ID
		got, err := target.Client().GetRole(context.Background(), id)
		if err != nil {
			return err
		}
		if got.Name != name || got.Description != description {
			return fmt.Errorf("the API holds role %s as %q / %q, want %q / %q", id, got.Name, got.Description, name, description)
		}
		return nil
	}
}

func TestAccRole_basic(t *testing.T) {
	// CLI work: a role with a name only, created and planned empty.
	acctest.CLIWorkDoneBy(t, "TestAccRole_duplicateName", "TestAccRole_disappears")
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccRoleConfig_name(name)),
			Check:  checkRole(target, name, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(roleAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^rol_[A-Za-z0-9]+$`))),
				statecheck.ExpectKnownValue(roleAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				statecheck.ExpectKnownValue(roleAddr, tfjsonpath.New("description"), knownvalue.StringExact("")),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// TestAccRole_update renames the role and sets, changes and removes its
// description, in place; removing it returns the role to the API's default.
func TestAccRole_update(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	update := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(roleAddr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	step := func(cfg, name, description string) resource.TestStep {
		return resource.TestStep{
			Config:           target.Config(cfg),
			Check:            checkRole(target, name, description),
			ConfigPlanChecks: update,
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(roleAddr, tfjsonpath.New("id")),
				statecheck.ExpectKnownValue(roleAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				statecheck.ExpectKnownValue(roleAddr, tfjsonpath.New("description"), knownvalue.StringExact(description)),
			},
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{
				Config:            target.Config(testAccRoleConfig_name(name)),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(roleAddr, tfjsonpath.New("id"))},
			},
			step(testAccRoleConfig_name(name+"-renamed"), name+"-renamed", ""),
			step(testAccRoleConfig_described(name+"-renamed", "Reads orders"), name+"-renamed", "Reads orders"),
			step(testAccRoleConfig_described(name+"-renamed", "Reads and writes orders"), name+"-renamed", "Reads and writes orders"),
			step(testAccRoleConfig_name(name+"-renamed"), name+"-renamed", ""),
			step(testAccRoleConfig_described(name, "Both at once"), name, "Both at once"),
			step(testAccRoleConfig_described(name, ""), name, ""),
		},
	})
}

func TestAccRole_import(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName() + " Support/Team"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccRoleConfig_described(name, "Imported"))},
			{ResourceName: roleAddr, ImportState: true, ImportStateVerify: true},
			{ResourceName: roleAddr, ImportState: true, ImportStateVerify: true, ImportStateId: name},
		},
	})
}

// TestAccRole_importRefused: import IDs the provider refuses, from the ID
// alone or from its look-ups. A role whose name differs only in case (it
// has a space and a slash) exists: names are matched exactly.
func TestAccRole_importRefused(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	name := acctest.RandomName() + " Support/Team"
	r, err := target.Client().CreateRole(context.Background(), mgmt.Role{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Client().DeleteRole(context.Background(), r.ID) })
	cfg := target.Config(testAccRoleConfig_name(name))
	importErr := func(id, want string) resource.TestStep { return acctest.ImportRefused(cfg, roleAddr, id, want) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			importErr(strings.ToUpper(name), `No role is named exactly "`+regexp.QuoteMeta(strings.ToUpper(name))+`"`),
			importErr("rol_doesnotexist0000", `No role has the id "rol_doesnotexist0000", and none is named so exactly`),
			importErr("..", `The import ID ".." for tenant_role must not be "." or ".."`),
		},
	})
}

// TestAccRole_conflict: a role that exists before the apply is never taken
// over; the error names it and the import command, and importing it works.
func TestAccRole_conflict(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	existing := target.Role(t)
	cfg := target.Config(testAccRoleConfig_described(existing.Name, existing.Description))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				// Refused at plan: the tenant holds a role of that name.
				ExpectError: acctest.ExpectError(`Unable to use role name.*A role with name "` + existing.Name + `" already exists in the tenant \(id ` + existing.ID +
					`\).*terraform import tenant_role.<name> ` + existing.ID),
			},
			{
				Config:             cfg,
				ResourceName:       roleAddr,
				ImportState:        true,
				ImportStateId:      existing.ID,
				ImportStatePersist: true,
			},
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(roleAddr, tfjsonpath.New("id"), knownvalue.StringExact(existing.ID)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRole_renameConflict: renaming to a name another role holds is
// refused (409) with the other role's id, and the role keeps its name.
func TestAccRole_renameConflict(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	other := target.Role(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccRoleConfig_name(name))},
			{
				Config:      target.Config(testAccRoleConfig_name(other.Name)),
				ExpectError: acctest.ExpectError(`Unable to use role name.*A role with name "` + other.Name + `" already exists in the tenant \(id ` + other.ID + `\)`),
			},
			{
				Config:           target.Config(testAccRoleConfig_name(name)),
				Check:            checkRole(target, name, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRole_duplicateName: a second resource with the name of a managed
// role, and a rename into the name another resource renames away in the
// same apply (Terraform does not order the two), are refused at every plan;
// so is a tainted role's create (Terraform does not tell it which object it
// replaces), with the way out. (-replace plans and applies: see the e2e
// TestPlanPredictsTheApply_replace.)
func TestAccRole_duplicateName(t *testing.T) {
	target := acctest.NewTarget(t)
	a, b, c := acctest.RandomName(), acctest.RandomName(), acctest.RandomName()
	two := func(first, second string) string {
		return testAccRoleConfig_name(first) + fmt.Sprintf("\nresource \"tenant_role\" \"second\" {\n  name = %q\n}\n", second)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccRoleConfig_name(a))},
			{
				Config:      target.Config(two(a, a)),
				ExpectError: acctest.ExpectError(`Unable to use role name.*A role with name "` + a + `" already exists`),
			},
			{Config: target.Config(two(a, b))},
			{
				Config:      target.Config(two(b, c)),
				ExpectError: acctest.ExpectError(`Unable to use role name.*A role with name "` + b + `" already exists.*Terraform does not order the two changes`),
			},
			{
				Config:      target.Config(two(a, b)),
				Taint:       []string{roleAddr},
				ExpectError: acctest.ExpectError(`Unable to use role name.*If it is this resource's own object, tainted.*terraform untaint`),
			},
		},
	})
}

// TestAccRole_drift: a role renamed and described outside Terraform is
// restored in place.
func TestAccRole_drift(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	cfg := target.Config(testAccRoleConfig_described(name, "Kept"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					_, err := target.Client().UpdateRole(context.Background(), s.RootModule().Resources[roleAddr].Primary.ID, mgmt.RoleUpdate{
						Name:        mgmt.Set(name + "-outside"),
						Description: mgmt.Set("changed outside"),
					})
					return err
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(roleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(roleAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					plancheck.ExpectKnownValue(roleAddr, tfjsonpath.New("description"), knownvalue.StringExact("Kept")),
				}},
			},
			{
				Config:           cfg,
				Check:            checkRole(target, name, "Kept"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccRole_disappears(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccRoleConfig_name(name)),
				Check: func(s *terraform.State) error {
					return target.Client().DeleteRole(context.Background(), s.RootModule().Resources[roleAddr].Primary.ID)
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(roleAddr, plancheck.ResourceActionCreate),
				}},
			},
			{
				Config:           target.Config(testAccRoleConfig_name(name)),
				Check:            checkRole(target, name, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccRole_validation: every bound is refused before any request. The
// bounds count characters: two- and three-byte characters at each bound.
func TestAccRole_validation(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	var cases []acctest.PlanError
	for _, tc := range []struct{ body, want string }{
		{`name = ""`, `Attribute name UTF-8 character count must be between 1 and 50, got: 0`},
		{`name = "` + strings.Repeat("n", 51) + `"`, `Attribute name UTF-8 character count must be between 1 and 50, got: 51`},
		{`name = "` + strings.Repeat("é", 51) + `"`, `Attribute name UTF-8 character count must be between 1 and 50, got: 51`},
		{`name = "` + strings.Repeat("日", 51) + `"`, `Attribute name UTF-8 character count must be between 1 and 50, got: 51`},
		{`name = "r"` + "\n  description = \"" + strings.Repeat("ü", 141) + `"`, `Attribute description UTF-8 character count must be at most 140, got: 141`},
		{`name = "r"` + "\n  description = \"" + strings.Repeat("日", 141) + `"`, `Attribute description UTF-8 character count must be at most 140, got: 141`},
		{`description = "d"`, `The argument "name" is required`},
	} {
		cases = append(cases, acctest.PlanError{Config: "resource \"tenant_role\" \"test\" {\n  " + tc.body + "\n}", Want: tc.want})
	}
	target.ExpectPlanErrors(t, cases)
}

// TestAccRole_multiByteBounds: a name of 50 and a description of 140
// multi-byte characters are accepted (the API counts characters).
func TestAccRole_multiByteBounds(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	prefix := acctest.RandomName()
	name := prefix + strings.Repeat("é", 50-len(prefix))
	description := strings.Repeat("日", 140)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{
				Config:           target.Config(testAccRoleConfig_described(name, description)),
				Check:            checkRole(target, name, description),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: roleAddr, ImportState: true, ImportStateVerify: true, ImportStateId: name},
		},
	})
}

// TestAccRole_lostCreateAnswer: the tenant creates the role but the answer
// is lost; the role found under the name equals the configuration, so it is
// taken into the state and not created twice.
func TestAccRole_lostCreateAnswer(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { emu.SetFaults(emulator.Faults{DropRate: 1}) },
				Config:    target.Config(testAccRoleConfig_described(name, "Lost answer")),
				Check: func(s *terraform.State) error {
					emu.SetFaults(emulator.Faults{})
					if n := emu.Stats().ByStatus["dropped"]; n != 1 {
						return fmt.Errorf("%d answers dropped, want the create's", n)
					}
					roles, err := target.Client().FindRolesByName(context.Background(), name)
					if err != nil {
						return err
					}
					if len(roles) != 1 || roles[0].ID != s.RootModule().Resources[roleAddr].Primary.ID {
						return fmt.Errorf("roles named %q: %v, want only the one in the state", name, roles)
					}
					return nil
				},
			},
			{
				Config:           target.Config(testAccRoleConfig_described(name, "Lost answer")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccRole_apiErrors(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	name := acctest.RandomName()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { emu.SetEntityCap(1); _ = target.Role(t) },
				Config:      target.Config(testAccRoleConfig_name(name)),
				ExpectError: acctest.ExpectError(`Unable to create role.*403.*limit of entities.*Delete unused ones`),
			},
			{
				PreConfig: func() { emu.SetEntityCap(0) },
				Config:    target.Config(testAccRoleConfig_name(name)),
			},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{Routes: map[string]int{"PATCH /api/v2/roles/{id}": 400}})
				},
				Config:      target.Config(testAccRoleConfig_described(name, "refused")),
				ExpectError: acctest.ExpectError(`Unable to update role.*Updating the role "rol_[A-Za-z0-9]+" failed.*400`),
			},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{Routes: map[string]int{"GET /api/v2/roles/{id}": 403}})
				},
				Config:      target.Config(testAccRoleConfig_name(name)),
				ExpectError: acctest.ExpectError(`Unable to read role.*Reading the role "rol_[A-Za-z0-9]+" failed.*403`),
			},
			{
				PreConfig: func() {
					emu.SetFaults(emulator.Faults{Routes: map[string]int{"DELETE /api/v2/roles/{id}": 403}})
				},
				Config:      target.Config(" "),
				ExpectError: acctest.ExpectError(`Unable to delete role.*Deleting the role "rol_[A-Za-z0-9]+" failed.*403`),
			},
			{
				PreConfig: func() { emu.SetFaults(emulator.Faults{}) },
				Config:    target.Config(testAccRoleConfig_name(name)),
				Check:     checkRole(target, name, ""),
			},
		},
	})
}

// TestAccRoleDataSource_matchesResource: the data source, by name and by
// id, shows what the resource holds, with and without a description.
func TestAccRoleDataSource_matchesResource(t *testing.T) {
	target := acctest.NewTarget(t)
	name := acctest.RandomName()
	checks := func() []statecheck.StateCheck {
		var out []statecheck.StateCheck
		for _, ds := range []string{"data.tenant_role.by_name", "data.tenant_role.by_id"} {
			for _, a := range []string{"id", "name", "description"} {
				out = append(out, statecheck.CompareValuePairs(roleAddr, tfjsonpath.New(a), ds, tfjsonpath.New(a), compare.ValuesSame()))
			}
		}
		return out
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccRoleConfig_name(name) + testAccRoleConfig_dataSources()), ConfigStateChecks: checks()},
			{Config: target.Config(testAccRoleConfig_described(name, "Described") + testAccRoleConfig_dataSources()), ConfigStateChecks: checks()},
		},
	})
}

func testAccRoleConfig_name(name string) string {
	return fmt.Sprintf(`
resource "tenant_role" "test" {
  name = %[1]q
}
`, name)
}

func testAccRoleConfig_described(name, description string) string {
	return fmt.Sprintf(`
resource "tenant_role" "test" {
  name        = %[1]q
  description = %[2]q
}
`, name, description)
}

func testAccRoleConfig_dataSources() string {
	return `
data "tenant_role" "by_name" {
  name = tenant_role.test.name
}

data "tenant_role" "by_id" {
  id = tenant_role.test.id
}
`
}

func TestAccRole_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             target.CheckGone(role.TypeName, getRole),
		Steps: acctest.IdentitySteps(target.Config(testAccRoleConfig_name(acctest.RandomName())), roleAddr, map[string]knownvalue.Check{
			"id": knownvalue.StringRegexp(regexp.MustCompile(`^rol_[A-Za-z0-9]+$`)),
		}),
	})
}

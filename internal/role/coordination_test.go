package role_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
)

// The tests of this file hold what spans the resources of one role: the
// plan that says what a create removes, and the applies in which one
// resource removes a pair another assigns.

// TestAccRolePermissions_createWarnsAtPlan: the plan of a create says which
// pairs the role holds outside the configuration, the ones the apply will
// remove, and names none that stays.
func TestAccRolePermissions_createWarnsAtPlan(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 4)
	assign(t, target, role.ID, pair(ident, "p:001"), pair(ident, "p:003"))
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001"))})
	out, err := cli.Run("plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"Warning: Role permissions will be removed",
		fmt.Sprintf("Role %q holds 1 permission(s) that this resource does not list", role.ID),
		"removes them: p:003 on " + ident,
	} {
		if !strings.Contains(flat, want) {
			t.Fatalf("the plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(flat, "p:001 on") {
		t.Fatalf("the plan names p:001, which the configuration keeps:\n%s", out)
	}

	// Nothing outside the configuration: no warning.
	other := target.Role(t)
	cli = acctest.NewCLI(t, map[string]string{"main.tf": target.Config(testAccPermissions(other.ID, ident, "p:000"))})
	if out, err := cli.Run("plan", "-input=false", "-no-color"); err != nil || strings.Contains(out, "will be removed") {
		t.Fatalf("a role holding nothing else: %v\n%s", err, out)
	}
}

// TestAccRolePermissions_twiceOnOneRole: two tenant_role_permissions on one
// role would each remove the other's pairs on every apply; the plan refuses
// them before anything is sent.
func TestAccRolePermissions_twiceOnOneRole(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	emu := target.RequireEmulator(t)
	second := fmt.Sprintf(`
resource "tenant_role_permissions" "second" {
  role_id     = %[1]q
  permissions = { %[2]q = ["p:001"] }
}
`, role.ID, ident)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{
				PreConfig:   emu.ResetStats,
				Config:      target.Config(testAccPermissions(role.ID, ident, "p:000") + second),
				ExpectError: regexp.MustCompile(`(?s)Role permissions managed twice.*2 tenant_role_permissions resources in\s+this\s+configuration\s+manage\s+the\s+permissions\s+of\s+role`),
			},
			{
				// Nothing was written: the role holds nothing.
				Config: target.Config(testAccPermissions(role.ID, ident, "p:000")),
				PreConfig: func() {
					if n := acctest.Writes(emu.Stats().ByRoute); n != 0 {
						t.Errorf("the refused plan sent %d writes", n)
					}
				},
				Check: checkAssigned(target, role.ID, ident, "p:000"),
			},
		},
	})
}

// gate is a terraform_data whose destroy takes two seconds. Made to depend
// on the resources of one step and replaced in the next, it holds their
// destroy back until the creates of the next step have run: Terraform
// destroys a resource only after what depends on it.
func gate(step int, dependsOn ...string) string {
	deps := ""
	if len(dependsOn) > 0 {
		deps = "depends_on = [" + strings.Join(dependsOn, ", ") + "]"
	}
	return fmt.Sprintf(`
resource "terraform_data" "gate" {
  triggers_replace = %[1]d
  %[2]s
  provisioner "local-exec" {
    when    = destroy
    command = "sleep 2"
  }
}
`, step, deps)
}

// TestAccRolePermissions_forcedReplacement: a replacement that Terraform
// forces (replace_triggered_by, -replace) plans the instance twice, as an
// update and as a create; that is one resource, not two on the role.
func TestAccRolePermissions_forcedReplacement(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	config := func(rev int) string {
		return fmt.Sprintf(`
resource "terraform_data" "rev" {
  input = %[3]d
}

resource "tenant_role_permissions" "test" {
  role_id     = %[1]q
  permissions = { %[2]q = ["p:000", "p:001"] }
  lifecycle {
    replace_triggered_by = [terraform_data.rev]
  }
}
`, role.ID, ident, rev)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(config(1)), Check: checkAssigned(target, role.ID, ident, "p:000", "p:001")},
			{
				Config: target.Config(config(2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
				},
				Check: checkAssigned(target, role.ID, ident, "p:000", "p:001"),
			},
		},
	})
}

// TestAccRolePermission_renamedWithoutMoved: renaming a resource (or a
// for_each key) without a moved block destroys one instance and creates
// another for the same pair in one apply; the pair ends assigned and the
// next plan is empty. (Resource names stand in for for_each keys: the
// test framework's state checks do not read for_each instances.)
func TestAccRolePermission_renamedWithoutMoved(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	config := func(name string) string {
		return fmt.Sprintf(`
resource "tenant_role_permission" %[3]q {
  role_id                    = %[1]q
  resource_server_identifier = %[2]q
  permission_name            = "p:000"
}
`, role.ID, ident, name)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(config("old") + gate(1, "tenant_role_permission.old")), Check: checkAssigned(target, role.ID, ident, "p:000")},
			{
				// The gate makes the create run first, the order that
				// once lost the pair.
				Config: target.Config(config("new") + gate(2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("tenant_role_permission.old", plancheck.ResourceActionDestroy),
						plancheck.ExpectResourceAction("tenant_role_permission.new", plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkAssigned(target, role.ID, ident, "p:000"),
			},
		},
	})
}

// TestAccRolePermissions_switchTypesInOneApply: a role moves from
// tenant_role_permissions to tenant_role_permission and back, each in one
// apply (the old resources destroyed, the new created); no pair that the
// new configuration lists is lost, whichever Terraform runs first.
func TestAccRolePermissions_switchTypesInOneApply(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 3)
	pairs := func(names ...string) string {
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, `
resource "tenant_role_permission" %[3]q {
  role_id                    = %[1]q
  resource_server_identifier = %[2]q
  permission_name            = %[4]q
}
`, role.ID, ident, strings.ReplaceAll(n, ":", "_"), n)
		}
		return b.String()
	}
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001")), Check: checkAssigned(target, role.ID, ident, "p:000", "p:001")},
			{
				// The authoritative resource goes, single pairs come: p:001
				// is dropped, p:000 stays.
				Config:           target.Config(pairs("p:000")),
				Check:            checkAssigned(target, role.ID, ident, "p:000"),
				ConfigPlanChecks: empty,
			},
			{
				// And back: the pairs go, the authoritative resource lists
				// them with one more.
				Config:           target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001", "p:002")),
				Check:            checkAssigned(target, role.ID, ident, "p:000", "p:001", "p:002"),
				ConfigPlanChecks: empty,
			},
			// The same two switches with the creates run first (the gate
			// holds the destroys back).
			{Config: target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001") + gate(1, "tenant_role_permissions.test"))},
			{
				Config:           target.Config(pairs("p:000") + gate(2)),
				Check:            checkAssigned(target, role.ID, ident, "p:000"),
				ConfigPlanChecks: empty,
			},
			{Config: target.Config(pairs("p:000", "p:001") + gate(3, "tenant_role_permission.p_000", "tenant_role_permission.p_001"))},
			{
				Config:           target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001", "p:002") + gate(4)),
				Check:            checkAssigned(target, role.ID, ident, "p:000", "p:001", "p:002"),
				ConfigPlanChecks: empty,
			},
		},
	})
}

// TestAccRolePermissions_switchWithoutGap: the switch the documentation
// gives for a role that must never lose a pair: the old resource goes in a
// removed block (forgotten, not destroyed) in the apply that adds the new
// ones. Nothing is removed from the role at any time.
func TestAccRolePermissions_switchWithoutGap(t *testing.T) {
	target := acctest.NewTarget(t)
	role, ident := target.Role(t), api(t, target, 2)
	emu := target.RequireEmulator(t)
	removed := `
removed {
  from = tenant_role_permissions.test
  lifecycle {
    destroy = false
  }
}
`
	single := func(name string) string {
		return fmt.Sprintf(`
resource "tenant_role_permission" %[3]q {
  role_id                    = %[1]q
  resource_server_identifier = %[2]q
  permission_name            = %[4]q
}
`, role.ID, ident, strings.ReplaceAll(name, ":", "_"), name)
	}
	noRemovals := func(*terraform.State) error {
		if n := emu.Stats().ByRoute["DELETE /api/v2/roles/{id}/permissions"]; n != 0 {
			return fmt.Errorf("the switch removed pairs from the role %d time(s)", n)
		}
		return nil
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(testAccPermissions(role.ID, ident, "p:000", "p:001"))},
			{
				PreConfig: emu.ResetStats,
				Config:    target.Config(single("p:000") + single("p:001") + removed),
				Check:     resource.ComposeTestCheckFunc(noRemovals, checkAssigned(target, role.ID, ident, "p:000", "p:001")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccRolePermissions_scopeAddedInTheSameApply: one apply adds a scope
// to an API and the permission for it to a role, with the API named by its
// literal identifier (as generated configuration does), so Terraform may
// assign the permission first. A slow terraform_data that the API depends
// on makes it do so every time, and starts the API's write seconds later;
// the assignment waits for the scope and the apply succeeds.
func TestAccRolePermissions_scopeAddedInTheSameApply(t *testing.T) {
	target := acctest.NewTarget(t)
	role := target.Role(t)
	ident := "https://api.example.com/" + acctest.RandomName()
	config := func(step int, names ...string) string {
		quoted := make([]string, len(names))
		scopes := make([]string, len(names))
		for i, n := range names {
			quoted[i] = fmt.Sprintf("%q", n)
			scopes[i] = fmt.Sprintf("%q = \"\"", n)
		}
		return fmt.Sprintf(`
resource "terraform_data" "slow" {
  triggers_replace = %[4]d
  provisioner "local-exec" {
    command = "sleep 7"
  }
}

resource "tenant_resource_server" "api" {
  identifier = %[2]q
  scopes     = { %[5]s }
  depends_on = [terraform_data.slow]
}

resource "tenant_role_permissions" "test" {
  role_id     = %[1]q
  permissions = { %[2]q = [%[3]s] }
}
`, role.ID, ident, strings.Join(quoted, ", "), step, strings.Join(scopes, ", "))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkNoPermissions(target, role.ID),
		Steps: []resource.TestStep{
			{Config: target.Config(config(1, "a:1"))},
			{
				Config:           target.Config(config(2, "a:1", "b:2")),
				Check:            checkAssigned(target, role.ID, ident, "a:1", "b:2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

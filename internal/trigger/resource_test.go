package trigger_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

const addr = "tenant_trigger_actions.test"

// bound is one action of a configuration: its id (or an expression, when
// it starts with "tenant_") and its display name.
type bound struct{ id, name string }

// checkBound checks, through the API, that the trigger runs exactly want,
// in order.
func checkBound(target *acctest.Target, trigger string, want ...bound) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := target.Client().TriggerBindings(context.Background(), trigger)
		if err != nil {
			return err
		}
		var g, w []string
		for _, b := range got {
			g = append(g, b.Action.ID+"="+b.DisplayName)
		}
		for _, b := range want {
			w = append(w, b.id+"="+b.name)
		}
		if strings.Join(g, ",") != strings.Join(w, ",") {
			return fmt.Errorf("the trigger %s runs %v, want %v", trigger, g, w)
		}
		return nil
	}
}

// checkUnbound checks, after destroy, that the trigger runs nothing.
func checkUnbound(target *acctest.Target, trigger string) resource.TestCheckFunc {
	return checkBound(target, trigger)
}

// actionsState is the state check of the actions attribute.
func actionsState(want ...bound) statecheck.StateCheck {
	items := make([]knownvalue.Check, 0, len(want))
	for _, b := range want {
		items = append(items, knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": knownvalue.StringExact(b.id), "display_name": knownvalue.StringExact(b.name),
		}))
	}
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New("actions"), knownvalue.ListExact(items))
}

func TestAccTriggerActions_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	a, b, c := target.Action(t, "post-login", true), target.Action(t, "post-login", true), target.Action(t, "post-login", true)
	first, second := bound{a, "First"}, bound{b, "Second"}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkUnbound(target, "post-login"),
		Steps: []resource.TestStep{
			{
				Config: target.Config(testAccBindings("post-login", first, second)),
				Check:  checkBound(target, "post-login", first, second),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("post-login")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("trigger"), knownvalue.StringExact("post-login")),
					actionsState(first, second),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateId: "post-login"},
			{
				// A reorder is one update in place.
				Config: target.Config(testAccBindings("post-login", second, first)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check:             checkBound(target, "post-login", second, first),
				ConfigStateChecks: []statecheck.StateCheck{actionsState(second, first)},
			},
			{
				// A new display name, an action added, one removed.
				Config: target.Config(testAccBindings("post-login", bound{c, "Third"}, bound{b, "Second, renamed"})),
				Check:  checkBound(target, "post-login", bound{c, "Third"}, bound{b, "Second, renamed"}),
			},
			{
				// An action bound outside Terraform is drift: the plan
				// unbinds it.
				PreConfig: func() {
					if _, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", []mgmt.BindingUpdate{
						{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: c}, DisplayName: "Third"},
						{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: b}, DisplayName: "Second, renamed"},
						{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: a}, DisplayName: "Outside"},
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: target.Config(testAccBindings("post-login", bound{c, "Third"}, bound{b, "Second, renamed"})),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: checkBound(target, "post-login", bound{c, "Third"}, bound{b, "Second, renamed"}),
			},
			{
				// Unbound outside Terraform: drift the other way.
				PreConfig: func() {
					if _, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:             target.Config(testAccBindings("post-login", bound{c, "Third"}, bound{b, "Second, renamed"})),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// An empty list binds nothing.
				Config: target.Config(testAccBindings("post-login")),
				Check:  checkUnbound(target, "post-login"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("actions"), knownvalue.ListExact([]knownvalue.Check{})),
				},
			},
		},
	})
}

// TestAccTriggerActions_import: an import by trigger id reads
// what the trigger runs, whoever bound it.
func TestAccTriggerActions_import(t *testing.T) {
	target := acctest.NewTarget(t)
	a := target.Action(t, "credentials-exchange", true)
	if _, err := target.Client().UpdateTriggerBindings(context.Background(), "credentials-exchange", []mgmt.BindingUpdate{
		{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: a}, DisplayName: "Bound outside"},
	}); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkUnbound(target, "credentials-exchange"),
		Steps: []resource.TestStep{
			{
				Config:             target.Config(testAccBindings("credentials-exchange", bound{a, "Bound outside"})),
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      "credentials-exchange",
				ImportStatePersist: true,
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if len(s) != 1 || s[0].Attributes["actions.0.id"] != a || s[0].Attributes["actions.0.display_name"] != "Bound outside" {
						return fmt.Errorf("imported %v", s)
					}
					return nil
				},
			},
			{
				Config:           target.Config(testAccBindings("credentials-exchange", bound{a, "Bound outside"})),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccTriggerActions_importRefused: import IDs the provider refuses from
// the ID alone.
func TestAccTriggerActions_importRefused(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	cfg := target.Config(testAccBindings("credentials-exchange", bound{"5d110643-a54e-432b-a0b7-e58bbf1fae77", "x"}))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			acctest.ImportRefused(cfg, addr, "custom-token-exchange", `Invalid import ID.*is bound by its token exchange profile`),
			acctest.ImportRefused(cfg, addr, "no-such-trigger", `Invalid import ID.*Use the trigger's id: post-login,`),
		},
	})
}

// TestAccTriggerActions_refusedBeforeAnyRequest: what the schema and the
// configuration's own checks refuse, before any request.
func TestAccTriggerActions_refusedBeforeAnyRequest(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	const a = "5d110643-a54e-432b-a0b7-e58bbf1fae77"
	target.ExpectPlanErrors(t, []acctest.PlanError{
		{Config: testAccBindings("custom-token-exchange", bound{a, "x"}),
			Want: `Attribute trigger is "custom-token-exchange", which has no trigger bindings. A custom-token-exchange action is bound by its token exchange profile`},
		{Config: testAccBindings("post-login", bound{a, "x"}, bound{"0b7cdb63-7b1f-4f38-a0c4-5d2d4e5b1b10", "y"}, bound{a, "z"}),
			Want: `Attribute actions\[2\].id is "` + a + `", which actions\[0\] binds already`},
		{Config: testAccBindings("post-logon", bound{a, "x"}), Want: `Attribute trigger value must be one of`},
		{Config: testAccBindings("post-login", bound{"not-a-uuid", "x"}), Want: `must be an action id, a UUID`},
		{Config: testAccBindings("post-login", bound{a, ""}), Want: `Attribute actions\[0\].display_name UTF-8 character count must be at least 1, got: 0`},
		{Config: testAccBindings("post-login", manyBound(21)...), Want: `Attribute actions list must contain at most 20 elements, got: 21`},
	})
}

// manyBound is n bindings of distinct made-up action ids.
func manyBound(n int) []bound {
	out := make([]bound, 0, n)
	for i := range n {
		out = append(out, bound{fmt.Sprintf("5d110643-a54e-432b-a0b7-%012d", i), fmt.Sprintf("a%d", i)})
	}
	return out
}

// TestAccTriggerActions_refusedAtPlan: what the tenant would refuse is
// refused at plan, after reading the actions, and nothing is written.
func TestAccTriggerActions_refusedAtPlan(t *testing.T) {
	acctest.OnceAcrossCLIs(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	other := target.Action(t, "credentials-exchange", true)
	undeployed := target.Action(t, "post-login", false)
	exchange := target.Action(t, "custom-token-exchange", true)
	emu.ResetStats()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      target.Config(testAccBindings("post-login", bound{other, "x"})),
				ExpectError: acctest.ExpectError(`runs at the trigger "credentials-exchange", not at "post-login"`),
			},
			{
				Config:      target.Config(testAccBindings("post-login", bound{exchange, "x"})),
				ExpectError: acctest.ExpectError(`runs at the trigger "custom-token-exchange", not at "post-login".*bound by its token exchange profile`),
			},
			{
				Config:      target.Config(testAccBindings("post-login", bound{undeployed, "x"})),
				ExpectError: acctest.ExpectError(`has no deployed version, and only a deployed action can be bound`),
			},
			{
				Config:      target.Config(testAccBindings("post-login", bound{"00000000-0000-4000-8000-000000000000", "x"})),
				ExpectError: acctest.ExpectError(`No action with id "00000000-0000-4000-8000-000000000000" exists in the tenant`),
			},
			{
				Config: target.Config(testAccBindings("post-login")),
				PreConfig: func() {
					if n := acctest.Writes(emu.Stats().ByRoute); n != 0 {
						t.Errorf("the refused plans sent %d writes", n)
					}
				},
			},
		},
	})
}

// TestAccTriggerActions_twiceOnOneTrigger: two resources on one trigger
// would undo each other on every apply; the plan refuses them.
func TestAccTriggerActions_twiceOnOneTrigger(t *testing.T) {
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	a, b := target.Action(t, "post-login", true), target.Action(t, "post-login", true)
	second := fmt.Sprintf(`
resource "tenant_trigger_actions" "second" {
  trigger = "post-login"
  actions = [{ id = %[1]q, display_name = "b" }]
}
`, b)
	emu.ResetStats()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkUnbound(target, "post-login"),
		Steps: []resource.TestStep{
			{
				Config:      target.Config(testAccBindings("post-login", bound{a, "a"}) + second),
				ExpectError: acctest.ExpectError(`Trigger actions managed twice.*Two tenant_trigger_actions resources in this configuration bind the trigger "post-login"`),
			},
			{
				// The same list twice is refused too.
				Config:      target.Config(testAccBindings("post-login", bound{a, "a"}) + strings.Replace(testAccBindings("post-login", bound{a, "a"}), `"test"`, `"second"`, 1)),
				ExpectError: acctest.ExpectError(`Trigger actions managed twice.*Two tenant_trigger_actions resources in this configuration bind the trigger "post-login"`),
			},
			{
				PreConfig: func() {
					if n := acctest.Writes(emu.Stats().ByRoute); n != 0 {
						t.Errorf("the refused plan sent %d writes", n)
					}
				},
				Config: target.Config(testAccBindings("post-login", bound{a, "a"})),
				Check:  checkBound(target, "post-login", bound{a, "a"}),
			},
		},
	})
}

// TestAccTriggerActions_createWarnsOfUnbound: the plan of a create names
// the actions the trigger runs that the list leaves out, which it unbinds.
func TestAccTriggerActions_createWarnsOfUnbound(t *testing.T) {
	target := acctest.NewTarget(t)
	a, outside := target.Action(t, "post-login", true), target.Action(t, "post-login", true)
	if _, err := target.Client().UpdateTriggerBindings(context.Background(), "post-login", []mgmt.BindingUpdate{
		{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: outside}, DisplayName: "Outside"},
	}); err != nil {
		t.Fatal(err)
	}
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.Config(testAccBindings("post-login", bound{a, "Mine"}))})
	out, err := cli.Run("plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	want := `Warning: Trigger actions will be unbound`
	if !strings.Contains(flat, want) || !strings.Contains(flat, fmt.Sprintf(`runs 1 action(s) that this resource does not list, and its create unbinds them: %s ("Outside")`, outside)) {
		t.Fatalf("the plan does not warn of the unbound action:\n%s", out)
	}
}

func TestAccTriggerActions_identity(t *testing.T) {
	target := acctest.NewTarget(t)
	a := target.Action(t, "post-change-password", true)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		TerraformVersionChecks:   acctest.NeedsIdentity,
		CheckDestroy:             checkUnbound(target, "post-change-password"),
		Steps: acctest.IdentitySteps(target.Config(testAccBindings("post-change-password", bound{a, "a"})), addr, map[string]knownvalue.Check{
			"id": knownvalue.StringExact("post-change-password"),
		}),
	})
}

func TestAccTriggerActionsDataSource_basic(t *testing.T) {
	target := acctest.NewTarget(t)
	a := target.Action(t, "send-phone-message", true)
	ds := "data.tenant_trigger_actions.test"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories,
		CheckDestroy:             checkUnbound(target, "send-phone-message"),
		Steps: []resource.TestStep{{
			Config: target.Config(testAccBindings("send-phone-message", bound{a, "Sender"}) + `
data "tenant_trigger_actions" "test" {
  trigger = tenant_trigger_actions.test.trigger
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("id"), knownvalue.StringExact("send-phone-message")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("actions"), knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id": knownvalue.StringExact(a), "display_name": knownvalue.StringExact("Sender"),
				})})),
			},
		}},
	})
}

// testAccBindings binds the actions to trigger; an id that starts with
// "tenant_" is an expression.
func testAccBindings(trigger string, actions ...bound) string {
	items := make([]string, 0, len(actions))
	for _, a := range actions {
		id := fmt.Sprintf("%q", a.id)
		if strings.HasPrefix(a.id, "tenant_") {
			id = a.id
		}
		items = append(items, fmt.Sprintf("    { id = %s, display_name = %q },\n", id, a.name))
	}
	return fmt.Sprintf(`
resource "tenant_trigger_actions" "test" {
  trigger = %[1]q
  actions = [
%[2]s  ]
}
`, trigger, strings.Join(items, ""))
}

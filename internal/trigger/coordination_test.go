package trigger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// The tests of this file hold the applies that remove a bound action and
// its binding together: Terraform destroys the action before it updates
// the bindings that listed it when the bindings referenced it (their state
// depends on it), and in no set order otherwise. Each runs the CLI, whose
// output shows the order the apply took; each apply succeeds at once, the
// tenant never answers 409, and the next plan is empty.

func requireAcc(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
}

// run runs the CLI and fails the test on an error.
func run(t *testing.T, cli *acctest.CLI, args ...string) string {
	t.Helper()
	out, err := cli.Run(args...)
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// order returns the index in out of each line, failing when one is missing.
func order(t *testing.T, out string, lines ...string) []int {
	t.Helper()
	var at []int
	for _, l := range lines {
		i := strings.Index(out, l)
		if i < 0 {
			t.Fatalf("the apply does not show %q:\n%s", l, out)
		}
		at = append(at, i)
	}
	return at
}

// actionHCL is a deployed post-login action.
func actionHCL(name string) string {
	return fmt.Sprintf(`
resource "tenant_action" %[1]q {
  name               = "%[1]s-${var.suffix}"
  code               = "exports.onExecutePostLogin = async () => {};"
  supported_triggers = { id = "post-login", version = "v3" }
}
`, name)
}

const suffixVar = `
variable "suffix" {
  type = string
}
`

// unbindAndDelete checks, after the apply that removed the action deleted,
// that the trigger runs exactly kept, the action is gone, the tenant never
// answered 409 and the next plan is empty.
func unbindAndDelete(t *testing.T, cli *acctest.CLI, emu *emulator.Server, target *acctest.Target, deleted string, kept ...bound) {
	t.Helper()
	if n := emu.Stats().ByStatus["409"]; n != 0 {
		t.Fatalf("the tenant answered 409 %d time(s)", n)
	}
	if err := checkBound(target, "post-login", kept...)(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := target.Client().GetAction(context.Background(), deleted); !mgmt.IsNotFound(err) {
		t.Fatalf("the removed action %s: %v", deleted, err)
	}
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the apply is not empty: %v\n%s", err, out)
	}
}

// keptThroughout checks, from the emulator's record of every list of
// bindings the trigger held, that each list stored from the from-th on
// binds kept: the trigger never stopped running them, however the apply
// went (a record, not a look at the end state or at the timing).
func keptThroughout(t *testing.T, emu *emulator.Server, trigger string, from int, kept ...string) {
	t.Helper()
	history := emu.BindingHistory(trigger)
	if len(history) <= from {
		t.Fatalf("the apply stored no list of the trigger %s", trigger)
	}
	for i, ids := range history[from:] {
		for _, id := range kept {
			if !slices.Contains(ids, id) {
				t.Fatalf("list %d of %d that the apply stored for %s, %v, does not bind %s; all: %v", i+1, len(history)-from, trigger, ids, id, history[from:])
			}
		}
	}
}

// TestAccTriggerActions_removeBoundAction_destroyFirst: the bindings
// reference the actions, so Terraform applies the removed action's destroy
// before the bindings' update. Of the two plans, Terraform runs either
// first: when the bindings plan first, the destroy unbinds the action
// itself; when the destroy plans first, the bindings are replaced, and
// their destroy unbinds the action before its delete.
func TestAccTriggerActions_removeBoundAction_destroyFirst(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	bindings := `
resource "tenant_trigger_actions" "test" {
  trigger = "post-login"
  actions = [
%s  ]
}
`
	item := func(name string) string {
		return fmt.Sprintf("    { id = tenant_action.%[1]s.id, display_name = tenant_action.%[1]s.name },\n", name)
	}
	cli := acctest.NewCLI(t, map[string]string{
		"main.tf": target.ProviderBlock() + suffixVar + actionHCL("one") + actionHCL("two") + fmt.Sprintf(bindings, item("one")+item("two")),
	})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	one := strings.TrimSpace(run(t, cli, "state", "show", "-no-color", "tenant_action.one"))
	oneID := attrOf(one, "id")
	two := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.two"), "id")
	twoName := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.two"), "name")

	cli.Write(t, "main.tf", target.ProviderBlock()+suffixVar+actionHCL("two")+fmt.Sprintf(bindings, item("two")))
	emu.ResetStats()
	from := len(emu.BindingHistory("post-login"))
	out := run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	if strings.Contains(out, "tenant_trigger_actions.test: Modifying...") {
		at := order(t, out, "tenant_action.one: Destruction complete", "tenant_trigger_actions.test: Modifying...")
		if at[0] > at[1] {
			t.Fatalf("the bindings were updated before the action was destroyed; this test is for the other order:\n%s", out)
		}
		t.Logf("the bindings planned first: the action's destroy unbound it, then the bindings' update; requests %v", emu.Stats().ByRoute)
	} else {
		at := order(t, out, "tenant_trigger_actions.test: Destruction complete", "tenant_action.one: Destroying...",
			"tenant_action.one: Destruction complete", "tenant_trigger_actions.test: Creation complete")
		if !slices.IsSorted(at) {
			t.Fatalf("the bindings' replacement did not surround the action's destroy:\n%s", out)
		}
		t.Logf("the destroy planned first: the bindings' replacement unbound it; requests %v", emu.Stats().ByRoute)
	}
	if n := emu.Stats().ByRoute["DELETE /api/v2/actions/actions/{id}"]; n != 1 {
		t.Fatalf("%d deletes, want 1", n)
	}
	keptThroughout(t, emu, "post-login", from, two)
	unbindAndDelete(t, cli, emu, target, oneID, bound{two, twoName})
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color")
	if err := checkUnbound(target, "post-login")(nil); err != nil {
		t.Fatal(err)
	}
}

// TestAccTriggerActions_removeBoundAction_updateFirst: bindings that name
// the actions by their literal ids (as generated configuration does) do not
// depend on them, so Terraform may update them first; a gate makes it do
// so every time, by Terraform's own order: the gate is replaced with
// create_before_destroy, its new object depends on the bindings (created
// after their write), its old one on the removed action (destroyed after
// the new one is created, and before that action).
func TestAccTriggerActions_removeBoundAction_updateFirst(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	gate := func(step int, dependsOn string) string {
		return fmt.Sprintf(`
resource "terraform_data" "gate" {
  triggers_replace = %d
  depends_on       = [%s]
  lifecycle {
    create_before_destroy = true
  }
}
`, step, dependsOn)
	}
	literal := func(ids ...string) string {
		var items []string
		for _, id := range ids {
			items = append(items, fmt.Sprintf("    { id = %q, display_name = \"bound %s\" },\n", id, id[:8]))
		}
		return fmt.Sprintf(`
resource "tenant_trigger_actions" "test" {
  trigger = "post-login"
  actions = [
%s  ]
}
`, strings.Join(items, ""))
	}
	head := target.ProviderBlock() + suffixVar
	cli := acctest.NewCLI(t, map[string]string{"main.tf": head + actionHCL("one") + actionHCL("two") + gate(1, "tenant_action.one")})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	one := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.one"), "id")
	two := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.two"), "id")
	cli.Write(t, "main.tf", head+actionHCL("one")+actionHCL("two")+gate(1, "tenant_action.one")+literal(one, two))
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	if err := checkBound(target, "post-login", bound{one, "bound " + one[:8]}, bound{two, "bound " + two[:8]})(nil); err != nil {
		t.Fatal(err)
	}

	cli.Write(t, "main.tf", head+actionHCL("two")+gate(2, "tenant_trigger_actions.test")+literal(two))
	emu.ResetStats()
	out := run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	written := "tenant_trigger_actions.test: Modifications complete" // or replaced, when the destroy planned first
	if !strings.Contains(out, written) {
		written = "tenant_trigger_actions.test: Creation complete"
	}
	at := order(t, out, written, "terraform_data.gate: Creation complete", "terraform_data.gate (deposed object", "tenant_action.one: Destroying...")
	if !slices.IsSorted(at) {
		t.Fatalf("the action was destroyed before the bindings were updated; this test is for the other order:\n%s", out)
	}
	t.Logf("order: the bindings' update, then the action's destroy; requests %v", emu.Stats().ByRoute)
	unbindAndDelete(t, cli, emu, target, one, bound{two, "bound " + two[:8]})
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// TestAccTriggerActions_removeEverything: the action and its bindings
// removed together: Terraform destroys the bindings first (they depend on
// the action), which unbinds it, then the action.
func TestAccTriggerActions_removeEverything(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.ProviderBlock() + suffixVar + actionHCL("one") + `
resource "tenant_trigger_actions" "test" {
  trigger = "post-login"
  actions = [{ id = tenant_action.one.id, display_name = "one" }]
}
`})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	one := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.one"), "id")
	cli.Write(t, "main.tf", target.ProviderBlock()+suffixVar)
	emu.ResetStats()
	out := run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	at := order(t, out, "tenant_trigger_actions.test: Destruction complete", "tenant_action.one: Destroying...")
	if at[0] > at[1] {
		t.Fatalf("the action was destroyed before its bindings:\n%s", out)
	}
	unbindAndDelete(t, cli, emu, target, one)
}

// TestAccTriggerActions_replaceBoundAction: a bound action that is
// replaced (-replace here; a new trigger does the same) is destroyed
// before its bindings take the new one, so the tenant refuses the destroy,
// and the error says what to do: create_before_destroy, with which the
// bindings take the new action first and the old one goes without a 409.
func TestAccTriggerActions_replaceBoundAction(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	bindings := `
resource "tenant_trigger_actions" "test" {
  trigger = "post-login"
  actions = [{ id = tenant_action.one.id, display_name = "one" }]
}
`
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.ProviderBlock() + suffixVar + actionHCL("one") + bindings})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	old := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.one"), "id")

	out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color", "-replace=tenant_action.one")
	flat := strings.Join(strings.Fields(out), " ")
	if err == nil || !strings.Contains(flat, `is bound to the trigger "post-login"`) || !strings.Contains(flat, "create_before_destroy = true") {
		t.Fatalf("the replacement of a bound action without create_before_destroy: %v\n%s", err, out)
	}
	if err := checkBound(target, "post-login", bound{old, "one"})(nil); err != nil {
		t.Fatal(err)
	}

	cbd := strings.Replace(actionHCL("one"), "\n}\n", "\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n", 1)
	cli.Write(t, "main.tf", target.ProviderBlock()+suffixVar+cbd+bindings)
	emu.ResetStats()
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", "-replace=tenant_action.one")
	replacement := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.one"), "id")
	if replacement == old {
		t.Fatal("the action was not replaced")
	}
	unbindAndDelete(t, cli, emu, target, old, bound{replacement, "one"})
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// forEachHCL is post-login actions for each of var.names and the bindings
// of them in that order, with lifecycle lines in the bindings.
func forEachHCL(target *acctest.Target, lifecycle string) string {
	return target.ProviderBlock() + suffixVar + `
variable "names" {
  type = list(string)
}

resource "tenant_action" "x" {
  for_each           = toset(var.names)
  name               = "${each.key}-${var.suffix}"
  code               = "exports.onExecutePostLogin = async () => {};"
  supported_triggers = { id = "post-login", version = "v3" }
}

resource "tenant_trigger_actions" "t" {
  trigger = "post-login"
  actions = [for n in var.names : { id = tenant_action.x[n].id, display_name = n }]
  lifecycle {
    ` + lifecycle + `
  }
}
`
}

// actionIDs are the ids of tenant_action.x by name, from the state.
func actionIDs(t *testing.T, cli *acctest.CLI, names ...string) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for _, n := range names {
		ids[n] = attrOf(run(t, cli, "state", "show", "-no-color", fmt.Sprintf("tenant_action.x[%q]", n)), "id")
	}
	return ids
}

// noConflictEmptyPlan checks that the tenant never answered 409 since the
// counters were reset and that the next plan is empty.
func noConflictEmptyPlan(t *testing.T, cli *acctest.CLI, emu *emulator.Server, args ...string) {
	t.Helper()
	if n := emu.Stats().ByStatus["409"]; n != 0 {
		t.Fatalf("the tenant answered 409 %d time(s)", n)
	}
	if out, err := cli.Run(append([]string{"plan", "-input=false", "-no-color", "-detailed-exitcode"}, args...)...); err != nil {
		t.Fatalf("the plan after the apply is not empty: %v\n%s", err, out)
	}
}

// TestAccTriggerActions_createBeforeDestroy: bindings with
// create_before_destroy drop a bound action that the same apply deletes.
// Their plan replaces them (the destroy planned first, with for_each); the
// create comes first and binds the new list, the old object's destroy,
// which Terraform plans again during the apply, finds the trigger written
// and sends nothing, and the delete finds the action unbound. The same
// holds for a replacement asked for (-replace): the trigger never stops
// running the actions both objects bind. No 409, no deposed object left,
// and the next plan is empty.
func TestAccTriggerActions_createBeforeDestroy(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": forEachHCL(target, "create_before_destroy = true")})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", `-var=names=["a","b","c"]`)
	ids := actionIDs(t, cli, "a", "b", "c")

	emu.ResetStats()
	from := len(emu.BindingHistory("post-login"))
	out := run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", `-var=names=["a","c"]`)
	t.Logf("the removal with create_before_destroy: requests %v", emu.Stats().ByRoute)
	if !strings.Contains(out, "(deposed object") {
		t.Fatalf("the bindings were not replaced create-before-destroy; this test is for that:\n%s", out)
	}
	keptThroughout(t, emu, "post-login", from, ids["a"], ids["c"])
	noConflictEmptyPlan(t, cli, emu, `-var=names=["a","c"]`)
	if err := checkBound(target, "post-login", bound{ids["a"], "a"}, bound{ids["c"], "c"})(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := target.Client().GetAction(context.Background(), ids["b"]); !mgmt.IsNotFound(err) {
		t.Fatalf("the removed action: %v", err)
	}

	from = len(emu.BindingHistory("post-login"))
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", `-var=names=["a","c"]`, "-replace=tenant_trigger_actions.t")
	keptThroughout(t, emu, "post-login", from, ids["a"], ids["c"])
	noConflictEmptyPlan(t, cli, emu, `-var=names=["a","c"]`)
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color", `-var=names=["a","c"]`)
	if err := checkUnbound(target, "post-login")(nil); err != nil {
		t.Fatal(err)
	}
}

// TestAccTriggerActions_deposedObject: an apply interrupted between the
// create of a create_before_destroy replacement and the destroy of the old
// object leaves that object in the state, deposed, for the next apply to
// destroy. Its destroy leaves the trigger to the live object: the trigger
// runs the live object's actions in every list it holds, and the next plan
// is empty. The deposed object is put in the state as Terraform writes one
// (a copy of the live object with a deposed key), three times over, the
// second apply without refresh. (Seen here: Terraform refreshes the deposed
// object before the live one, or without refresh plans its destroy first,
// so the live object plans an update; the other order, where the deposed
// object's refresh comes after the live object's plan and marks it, is
// TestProtocol_deposedAfterTheLiveObject's.)
func TestAccTriggerActions_deposedObject(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": forEachHCL(target, "create_before_destroy = true")})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	vars := `-var=names=["a","b"]`
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", vars)
	ids := actionIDs(t, cli, "a", "b")
	for i := range 3 {
		depose(t, cli, "tenant_trigger_actions", fmt.Sprintf("0000000%d", i))
		emu.ResetStats()
		from := len(emu.BindingHistory("post-login"))
		args := []string{"apply", "-auto-approve", "-input=false", "-no-color", vars}
		if i == 1 {
			args = append(args, "-refresh=false")
		}
		out := run(t, cli, args...)
		if !strings.Contains(out, "(deposed object 0000000") {
			t.Fatalf("apply %d did not destroy the deposed object:\n%s", i+1, out)
		}
		if len(emu.BindingHistory("post-login")) > from {
			keptThroughout(t, emu, "post-login", from, ids["a"], ids["b"])
		}
		t.Logf("apply %d: requests %v", i+1, emu.Stats().ByRoute)
		noConflictEmptyPlan(t, cli, emu, vars)
		if err := checkBound(target, "post-login", bound{ids["a"], "a"}, bound{ids["b"], "b"})(nil); err != nil {
			t.Fatal(err)
		}
	}
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color", vars)
}

// depose adds to the state a deposed copy of the one instance of the
// resource type, as an apply interrupted during its create_before_destroy
// replacement leaves it.
func depose(t *testing.T, cli *acctest.CLI, typeName, key string) {
	t.Helper()
	var state map[string]any
	if err := json.Unmarshal([]byte(run(t, cli, "state", "pull")), &state); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range state["resources"].([]any) {
		res := r.(map[string]any)
		if res["type"] != typeName {
			continue
		}
		instances := res["instances"].([]any)
		deposed := map[string]any{}
		for k, v := range instances[0].(map[string]any) {
			deposed[k] = v
		}
		deposed["deposed"] = key
		res["instances"] = append(instances, deposed)
		found = true
	}
	if !found {
		t.Fatalf("no %s in the state", typeName)
	}
	state["serial"] = state["serial"].(float64) + 1
	body, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	cli.Write(t, "pushed.tfstate", string(body))
	run(t, cli, "state", "push", "pushed.tfstate")
}

// TestAccTriggerActions_preventDestroy: bindings with prevent_destroy
// cannot be replaced, so the plan that removes bound actions with their
// entries fails when the deletes planned first (always with for_each); the
// plan says why and what to do, which then works: the entries removed in
// one apply, the actions in the next.
func TestAccTriggerActions_preventDestroy(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	cli := acctest.NewCLI(t, map[string]string{"main.tf": forEachHCL(target, "prevent_destroy = true")})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", `-var=names=["a","b"]`)
	ids := actionIDs(t, cli, "a", "b")

	emu.ResetStats()
	out, err := cli.Run("plan", "-input=false", "-no-color", `-var=names=["a"]`)
	flat := strings.Join(strings.Fields(out), " ")
	// Terraform's summary is "Instance cannot be destroyed", OpenTofu's
	// "Resource instance cannot be destroyed".
	if err == nil || !strings.Contains(flat, "nstance cannot be destroyed") ||
		!strings.Contains(flat, "With lifecycle prevent_destroy on this resource Terraform refuses the replacement: remove the actions from actions in one apply, and from the configuration in the next.") {
		t.Fatalf("the plan does not say what to do: %v\n%s", err, out)
	}
	if n := acctest.Writes(emu.Stats().ByRoute); n != 0 {
		t.Fatalf("the refused plan sent %d writes", n)
	}

	// What it says: the entry first, then the action.
	cli.Write(t, "main.tf", strings.Replace(forEachHCL(target, "prevent_destroy = true"),
		"[for n in var.names :", `[for n in setsubtract(var.names, ["b"]) :`, 1))
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", `-var=names=["a","b"]`)
	if err := checkBound(target, "post-login", bound{ids["a"], "a"})(nil); err != nil {
		t.Fatal(err)
	}
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", `-var=names=["a"]`)
	noConflictEmptyPlan(t, cli, emu, `-var=names=["a"]`)
	if _, err := target.Client().GetAction(context.Background(), ids["b"]); !mgmt.IsNotFound(err) {
		t.Fatalf("the removed action: %v", err)
	}
	cli.Write(t, "main.tf", forEachHCL(target, ""))
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color", `-var=names=["a"]`)
}

// attrOf is the value of a top-level string attribute in `terraform state
// show` output.
func attrOf(show, name string) string {
	for _, line := range strings.Split(show, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.TrimSpace(k) == name {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// TestAccTriggerActions_rename: a tenant_trigger_actions renamed without a
// moved block is a destroy of the old address (which unbinds every action
// of the trigger) and a create of the new one for the same trigger, in no
// set order, so the tenant could end with nothing bound. Every plan fails,
// whichever of the two plans first, saying to add the moved block; with
// it, the apply only moves the address and the next plan is empty.
func TestAccTriggerActions_rename(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	bindings := func(name string) string {
		return fmt.Sprintf(`
resource "tenant_trigger_actions" %q {
  trigger = "post-login"
  actions = [{ id = tenant_action.one.id, display_name = "one" }]
}
`, name)
	}
	head := target.ProviderBlock() + suffixVar + actionHCL("one")
	cli := acctest.NewCLI(t, map[string]string{"main.tf": head + bindings("old")})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	one := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.one"), "id")

	cli.Write(t, "main.tf", head+bindings("new"))
	for i := range 4 {
		out, err := cli.Run("plan", "-input=false", "-no-color")
		flat := strings.Join(strings.Fields(out), " ")
		if err == nil || !strings.Contains(flat, `the trigger "post-login"`) || !strings.Contains(flat, "moved block") {
			t.Fatalf("plan %d of the rename without a moved block: %v\n%s", i+1, err, out)
		}
		if strings.Contains(flat, "managed twice") {
			t.Fatalf("plan %d took the rename for two resources of one trigger:\n%s", i+1, out)
		}
	}
	if err := checkBound(target, "post-login", bound{one, "one"})(nil); err != nil {
		t.Fatal(err)
	}

	cli.Write(t, "main.tf", head+bindings("new")+`
moved {
  from = tenant_trigger_actions.old
  to   = tenant_trigger_actions.new
}
`)
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the move is not empty: %v\n%s", err, out)
	}
	if err := checkBound(target, "post-login", bound{one, "one"})(nil); err != nil {
		t.Fatal(err)
	}
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// TestAccTriggerActions_removeManyBoundActions: 20 bound actions of one
// trigger (the most a trigger may run), made with count, 19 of them removed
// together with their entries in one apply, at the CLI's default
// parallelism and at -parallelism=2: more than -parallelism − 1 either way.
// With count, Terraform plans every instance of the actions, the destroyed
// ones included, before the bindings that reference them, and applies the
// destroys before the bindings' update: the bindings' plan, which sees the
// destroys, replaces itself so that its destroy unbinds exactly those
// actions first. The apply succeeds at once, the tenant never answers 409,
// every list the trigger held during the apply binds the kept action (the
// emulator's record), and the next plan is empty. The requests of each
// apply are logged by route.
func TestAccTriggerActions_removeManyBoundActions(t *testing.T) {
	requireAcc(t)
	const all = 20
	for _, parallelism := range []string{"", "-parallelism=2"} {
		name := "default parallelism"
		if parallelism != "" {
			name = parallelism
		}
		t.Run(name, func(t *testing.T) {
			target := acctest.NewTarget(t)
			emu := target.RequireEmulator(t)
			config := func(n int) string {
				return target.ProviderBlock() + suffixVar + fmt.Sprintf(`
resource "tenant_action" "many" {
  count              = %d
  name               = "many-${count.index}-${var.suffix}"
  code               = "exports.onExecutePostLogin = async () => {};"
  supported_triggers = { id = "post-login", version = "v3" }
}

resource "tenant_trigger_actions" "test" {
  trigger = "post-login"
  actions = [for a in tenant_action.many : { id = a.id, display_name = a.name }]
}

output "ids" {
  value = tenant_action.many[*].id
}
`, n)
			}
			args := func(cmd string) []string {
				a := []string{cmd, "-auto-approve", "-input=false", "-no-color"}
				if parallelism != "" {
					a = append(a, parallelism)
				}
				return a
			}
			cli := acctest.NewCLI(t, map[string]string{"main.tf": config(all)})
			cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName())
			run(t, cli, args("apply")...)
			var ids []string
			if err := json.Unmarshal([]byte(run(t, cli, "output", "-json", "ids")), &ids); err != nil || len(ids) != all {
				t.Fatalf("ids %v: %v", ids, err)
			}
			kept := attrOf(run(t, cli, "state", "show", "-no-color", "tenant_action.many[0]"), "name")
			if err := checkBound(target, "post-login", boundAll(target, ids)...)(nil); err != nil {
				t.Fatal(err)
			}

			cli.Write(t, "main.tf", config(1))
			emu.ResetStats()
			plan := []string{"plan", "-input=false", "-no-color", "-out=tfplan"}
			if parallelism != "" {
				plan = append(plan, parallelism)
			}
			// The plan names each action it unbinds as the trigger shows it,
			// and the replacement keeps the id, which is the trigger's.
			flat := strings.Join(strings.Fields(run(t, cli, plan...)), " ")
			if !strings.Contains(flat, fmt.Sprintf("%s (%q)", ids[1], strings.Replace(kept, "many-0-", "many-1-", 1))) ||
				strings.Contains(flat, `id = "post-login" -> (known after apply)`) {
				t.Fatalf("the replacement's plan:\n%s", flat)
			}
			planned := emu.Stats()
			emu.ResetStats()
			from := len(emu.BindingHistory("post-login"))
			apply := []string{"apply", "-input=false", "-no-color"}
			if parallelism != "" {
				apply = append(apply, parallelism)
			}
			out := run(t, cli, append(apply, "tfplan")...)
			st := emu.Stats()
			t.Logf("removing %d bound actions and their entries (%s): the plan %d requests %v; the apply %d requests %v, by status %v",
				all-1, name, planned.Total, planned.ByRoute, st.Total, st.ByRoute, st.ByStatus)
			if n := strings.Count(out, ": Destruction complete"); n != all || !strings.Contains(out, "tenant_trigger_actions.test: Creation complete") {
				t.Fatalf("the apply did not destroy the %d actions and replace the bindings (%d destroyed):\n%s", all-1, n, out)
			}
			for _, id := range ids[1:] {
				if _, err := target.Client().GetAction(context.Background(), id); !mgmt.IsNotFound(err) {
					t.Fatalf("the removed action %s: %v", id, err)
				}
			}
			keptThroughout(t, emu, "post-login", from, ids[0])
			unbindAndDelete(t, cli, emu, target, ids[1], bound{ids[0], kept})
			run(t, cli, args("destroy")...)
		})
	}
}

// boundAll is the bindings of ids, each shown by its action's name.
func boundAll(target *acctest.Target, ids []string) []bound {
	var out []bound
	for _, id := range ids {
		a, err := target.Client().GetAction(context.Background(), id)
		if err != nil {
			return append(out, bound{id, err.Error()})
		}
		out = append(out, bound{id, a.Name})
	}
	return out
}

// TestAccTriggerActions_removeBoundActions_literalIDs: bindings that name
// the actions by literal ids (a variable) order nothing between their
// write and the deletes. A delete refused (409) while its action is bound
// deletes again when the trigger, read then, no longer binds it; one that
// reads it still bound, before the bindings' write, fails saying to apply
// again, and the next apply removes the rest. Either way the tenant ends
// as configured, the trigger runs the kept action throughout, and the next
// plan is empty.
func TestAccTriggerActions_removeBoundActions_literalIDs(t *testing.T) {
	requireAcc(t)
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	actions := target.ProviderBlock() + suffixVar + `
variable "n" {
  type = number
}

resource "tenant_action" "a" {
  count              = var.n
  name               = "literal-${count.index}-${var.suffix}"
  code               = "exports.onExecutePostLogin = async () => {};"
  supported_triggers = { id = "post-login", version = "v3" }
}

output "ids" {
  value = tenant_action.a[*].id
}
`
	bindings := `
variable "ids" {
  type = list(string)
}

resource "tenant_trigger_actions" "test" {
  trigger = "post-login"
  actions = [for id in var.ids : { id = id, display_name = "bound ${substr(id, 0, 8)}" }]
}
`
	cli := acctest.NewCLI(t, map[string]string{"main.tf": actions})
	cli.Env = append(cli.Env, "TF_VAR_suffix="+acctest.RandomName(), "TF_VAR_n=3")
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	var ids []string
	if err := json.Unmarshal([]byte(run(t, cli, "output", "-json", "ids")), &ids); err != nil || len(ids) != 3 {
		t.Fatalf("ids %v: %v", ids, err)
	}
	literal := func(ids ...string) string {
		b, _ := json.Marshal(ids)
		return "-var=ids=" + string(b)
	}
	cli.Write(t, "main.tf", actions+bindings)
	run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", literal(ids...))

	emu.ResetStats()
	from := len(emu.BindingHistory("post-login"))
	out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color", "-var=n=1", literal(ids[0]))
	t.Logf("the apply's requests %v, by status %v", emu.Stats().ByRoute, emu.Stats().ByStatus)
	if err != nil {
		flat := strings.Join(strings.Fields(out), " ")
		if n, refused := strings.Count(flat, "apply again"), strings.Count(flat, "Error: Unable to delete action"); n == 0 || n != refused {
			t.Fatalf("the apply failed, %d of its %d refusal(s) saying to apply again: %v\n%s", n, refused, err, out)
		}
		t.Logf("a delete read its action still bound, before the bindings' write: applying again")
		run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color", "-var=n=1", literal(ids[0]))
	}
	for _, id := range ids[1:] {
		if _, err := target.Client().GetAction(context.Background(), id); !mgmt.IsNotFound(err) {
			t.Fatalf("the removed action %s: %v", id, err)
		}
	}
	keptThroughout(t, emu, "post-login", from, ids[0])
	if err := checkBound(target, "post-login", bound{ids[0], "bound " + ids[0][:8]})(nil); err != nil {
		t.Fatal(err)
	}
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-detailed-exitcode", "-var=n=1", literal(ids[0])); err != nil {
		t.Fatalf("the plan after the apply is not empty: %v\n%s", err, out)
	}
	run(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color", "-var=n=1", literal(ids[0]))
}

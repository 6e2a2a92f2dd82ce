package trigger_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestAccTriggerActions_list: terraform query finds each trigger that runs
// actions (and no other), and its generated configuration imports them with
// no change.
func TestAccTriggerActions_list(t *testing.T) {
	requireAcc(t)
	acctest.RequireTerraform(t, "1.14.0", "terraform query and list resources")
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	login, phone := target.Action(t, "post-login", true), target.Action(t, "send-phone-message", true)
	second := target.Action(t, "post-login", true)
	ctx := context.Background()
	for trigger, ids := range map[string][]string{"post-login": {second, login}, "send-phone-message": {phone}} {
		var body []mgmt.BindingUpdate
		for i, id := range ids {
			body = append(body, mgmt.BindingUpdate{Ref: mgmt.BindingRef{Type: mgmt.BindingByActionID, Value: id}, DisplayName: trigger + "-" + string(rune('a'+i))})
		}
		if _, err := target.Client().UpdateTriggerBindings(ctx, trigger, body); err != nil {
			t.Fatal(err)
		}
	}
	cli := acctest.NewCLI(t, map[string]string{
		"main.tf":          target.ProviderBlock(),
		"list.tfquery.hcl": "list \"tenant_trigger_actions\" \"all\" {\n  provider         = tenant\n  include_resource = true\n}\n",
	})
	emu.ResetStats()
	out := run(t, cli, "query", "-generate-config-out=generated.tf", "-no-color")
	// One request per trigger the resource manages.
	if n := emu.Stats().ByRoute["GET /api/v2/actions/triggers/{trigger}/bindings"]; n != 7 {
		t.Errorf("the query read %d triggers, want 7", n)
	}
	for _, want := range []string{"post-login (2 actions)", "send-phone-message (1 actions)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the query does not list %q:\n%s", want, out)
		}
	}
	generated, err := os.ReadFile(filepath.Join(cli.Dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(generated), "\nimport {"); n != 2 {
		t.Fatalf("%d imports generated, want 2:\n%s", n, generated)
	}
	out = run(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(out, "Resources: 2 imported, 0 added, 0 changed, 0 destroyed.") {
		t.Fatalf("the apply of the generated configuration:\n%s", out)
	}
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the import is not empty: %v\n%s", err, out)
	}
	if err := checkBound(target, "post-login", bound{second, "post-login-a"}, bound{login, "post-login-b"})(nil); err != nil {
		t.Fatal(err)
	}
}

package phoneprovider_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// TestAccPhoneProvider_list: terraform query finds the tenant's provider in
// one request, and its generated configuration imports it with no change.
func TestAccPhoneProvider_list(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	acctest.RequireTerraform(t, "1.14.0", "terraform query and list resources")
	target := acctest.NewTargetWith(t, emulator.Options{Demo: true})
	emu := target.RequireEmulator(t)
	cli := acctest.NewCLI(t, map[string]string{
		"main.tf":          target.ProviderBlock(),
		"list.tfquery.hcl": "list \"tenant_phone_provider\" \"current\" {\n  provider         = tenant\n  include_resource = true\n}\n",
	})
	emu.ResetStats()
	out, err := cli.Run("query", "-generate-config-out=generated.tf", "-no-color")
	if err != nil {
		t.Fatalf("query: %v\n%s", err, out)
	}
	if n := emu.Stats().ByRoute["GET /api/v2/branding/phone/providers"]; n != 1 {
		t.Errorf("the query listed %d times, want 1", n)
	}
	if !strings.Contains(out, "custom ("+emu.Demo().PhoneProviderID+")") {
		t.Fatalf("the query does not list the provider:\n%s", out)
	}
	generated, err := os.ReadFile(filepath.Join(cli.Dir, "generated.tf"))
	if err != nil || strings.Count(string(generated), "\nimport {") != 1 {
		t.Fatalf("generated %s, %v", generated, err)
	}
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil || !strings.Contains(out, "Resources: 1 imported, 0 added, 0 changed, 0 destroyed.") {
		t.Fatalf("the apply of the generated configuration: %v\n%s", err, out)
	}
	if out, err := cli.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the import is not empty: %v\n%s", err, out)
	}
}

// TestAccPhoneProvider_actionExample applies the action's example as it is
// (examples/actions/tenant_phone_provider_test): it configures the phone
// provider and sends a test notification through it once it is created.
func TestAccPhoneProvider_actionExample(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI; set TF_ACC=1")
	}
	acctest.RequireTerraform(t, "1.14.0", "actions")
	target := acctest.NewTarget(t)
	emu := target.RequireEmulator(t)
	example, err := os.ReadFile("../../examples/actions/tenant_phone_provider_test/action.tf")
	if err != nil {
		t.Fatal(err)
	}
	cli := acctest.NewCLI(t, map[string]string{"main.tf": target.ProviderBlock() + string(example)})
	if out, err := cli.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	st := emu.State()
	sent := emu.Outbox()
	if len(st.PhoneProviders) != 1 || len(sent) != 1 || !strings.Contains(string(st.PhoneProviders[0]), `"id":"`+sent[0].ProviderID+`"`) || sent[0].To != "+15551234567" {
		t.Fatalf("providers %s, outbox %+v", st.PhoneProviders, sent)
	}
	if out, err := cli.Run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("destroy: %v\n%s", err, out)
	}
}

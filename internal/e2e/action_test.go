package e2e_test

import (
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

func actionConfig(emu *emulator.Server, input string) string {
	return acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + `
data "tenant_phone_provider" "current" {}

action "tenant_phone_provider_test" "smoke" {
  config {
    provider_id     = data.tenant_phone_provider.current.id
    to              = "+15550001111"
    delivery_method = "voice"
  }
}

resource "terraform_data" "release" {
  input = "` + input + `"
  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.tenant_phone_provider_test.smoke]
    }
  }
}
`
}

// TestPhoneProviderTestAction runs the action through the terraform CLI:
// from an action_trigger after a resource is created and after it is
// updated, and on its own with terraform apply -invoke. Each run reaches
// the tenant's outbox once, and Terraform prints the action's progress.
func TestPhoneProviderTestAction(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	acctest.RequireTerraform(t, "1.14.0", "actions")
	emu, err := emulator.Start(emulator.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	cli := acctest.NewCLI(t, map[string]string{"main.tf": actionConfig(emu, "v1")})
	const progress = "Sending a test notification through phone provider " // the action's first progress message
	steps := []struct {
		name string
		args []string
		file string
	}{
		{"after_create", []string{"apply", "-auto-approve", "-input=false", "-no-color"}, actionConfig(emu, "v1")},
		{"after_update", []string{"apply", "-auto-approve", "-input=false", "-no-color"}, actionConfig(emu, "v2")},
		{"-invoke", []string{"apply", "-auto-approve", "-input=false", "-no-color", "-invoke=action.tenant_phone_provider_test.smoke"}, actionConfig(emu, "v2")},
	}
	for i, s := range steps {
		cli.Write(t, "main.tf", s.file)
		out, err := cli.Run(s.args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", s.name, err, out)
		}
		t.Logf("%s:\n%s", s.name, tail(out, 12))
		if !strings.Contains(out, progress) || !strings.Contains(out, "Test notification successfully sent for processing") {
			t.Fatalf("%s: Terraform did not print the action's progress:\n%s", s.name, out)
		}
		sent := emu.Outbox()
		if len(sent) != i+1 {
			t.Fatalf("%s: %d test notifications in the outbox, want %d", s.name, len(sent), i+1)
		}
		if last := sent[len(sent)-1]; last.To != "+15550001111" || last.DeliveryMethod != "voice" || last.ProviderID != emu.Demo().PhoneProviderID {
			t.Fatalf("%s: outbox %+v", s.name, last)
		}
	}
	// A plan with nothing to change sends nothing.
	if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	if n := len(emu.Outbox()); n != len(steps) {
		t.Fatalf("a plan sent a notification: %d in the outbox", n)
	}
}

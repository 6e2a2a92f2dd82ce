package e2e_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

// TestCIPipeline runs the steps of the CI guide (docs/guides/ci.md), from
// examples/ci as they are, against the emulator with the credentials in
// TENANT_* variables: a plan saved for review, the apply of exactly that
// plan, a nightly drift check that passes, the same check failing with
// exit code 2 once the tenant is changed outside Terraform, and a new plan
// and apply that repair it.
func TestCIPipeline(t *testing.T) {
	requireAcc(t)
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	files := map[string]string{}
	for _, name := range []string{"main.tf", "pipeline.sh"} {
		b, err := os.ReadFile(filepath.Join("../../examples/ci", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	cli := acctest.NewCLI(t, files)
	env := append(cli.Env, "TENANT_DOMAIN="+emu.Domain(), "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret())
	step := func(arg string) (string, int) {
		cmd := exec.Command("bash", "pipeline.sh", arg)
		cmd.Dir, cmd.Env = cli.Dir, append(os.Environ(), env...)
		cmd.Env = append(cmd.Env, "PATH="+filepath.Dir(terraformBinary(t))+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return string(out), 0
		case errors.As(err, &exit):
			return string(out), exit.ExitCode()
		}
		t.Fatalf("pipeline.sh %s: %v", arg, err)
		return "", 0
	}
	mustStep := func(arg string, want int) string {
		t.Helper()
		out, code := step(arg)
		if code != want {
			t.Fatalf("pipeline.sh %s exited %d, want %d:\n%s", arg, code, want, out)
		}
		return out
	}

	out := mustStep("plan", 0)
	if !strings.Contains(out, "3 to add, 0 to change, 0 to destroy") {
		t.Fatalf("plan:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(cli.Dir, "tfplan")); err != nil {
		t.Fatal("the plan was not saved for the apply job")
	}
	if b, _ := os.ReadFile(filepath.Join(cli.Dir, "plan.txt")); strings.Contains(string(b), emu.ClientSecret()) {
		t.Fatal("the plan artifact holds the client secret")
	}
	out = mustStep("apply", 0)
	if !strings.Contains(out, "Apply complete! Resources: 3 added, 0 changed, 0 destroyed.") {
		t.Fatalf("apply:\n%s", out)
	}
	mustStep("drift", 0)

	// Someone renames the API in the tenant's dashboard.
	c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateResourceServer(context.Background(), "https://api.example.com/orders/", mgmt.ResourceServerUpdate{Name: mgmt.Set("Renamed by hand")}); err != nil {
		t.Fatal(err)
	}
	out = mustStep("drift", 2)
	if b, _ := os.ReadFile(filepath.Join(cli.Dir, "drift.txt")); !strings.Contains(string(b), "Renamed by hand") {
		t.Fatalf("the drift report does not show the change:\n%s\n%s", out, b)
	}
	mustStep("plan", 0)
	mustStep("apply", 0)
	mustStep("drift", 0)
}

func terraformBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

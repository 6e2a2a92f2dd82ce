package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// TestSecrets_clientSecret: a client's secret, which the tenant generates,
// reaches another provider configuration through the tenant_client_secret
// ephemeral resource (a second tenant provider that signs in as the new
// client, through its grant, and reads a role), and is rotated; the
// secret, old and new, is in no TRACE log, command output, plan or state.
func TestSecrets_clientSecret(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	acctest.RequireCLI(t, "1.10.0", "1.11.0", "ephemeral resources")
	emu, err := emulator.Start(emulator.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	config := func(rotation int) string {
		return acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + `
resource "tenant_client" "worker" {
  name                   = "worker"
  app_type               = "non_interactive"
  grant_types            = ["client_credentials"]
  client_secret_rotation = ` + string(rune('0'+rotation)) + `
}

resource "tenant_client_grant" "worker" {
  client_id = tenant_client.worker.client_id
  audience  = "` + emu.Audience() + `"
  scopes    = ["read:roles"]
}

ephemeral "tenant_client_secret" "worker" {
  client_id  = tenant_client.worker.client_id
  depends_on = [tenant_client_grant.worker]
}

provider "tenant" {
  alias         = "worker"
  domain        = "` + emu.Domain() + `"
  client_id     = tenant_client.worker.client_id
  client_secret = ephemeral.tenant_client_secret.worker.client_secret
}

# Read at apply, once the worker and its grant exist (and, on a run that
# rotates the secret, once it is rotated: OpenTofu reads a data source at
# plan unless something it depends on changes).
data "tenant_role" "seen_by_worker" {
  provider   = tenant.worker
  name       = "demo-role"
  depends_on = [tenant_client.worker, tenant_client_grant.worker]
}

output "role_seen_by_worker" {
  value = data.tenant_role.seen_by_worker.id
}
`
	}
	cli := acctest.NewCLI(t, map[string]string{"main.tf": config(1)})
	workerSecret := func() string {
		for _, raw := range emu.State().Clients {
			var c struct {
				Name   string `json:"name"`
				Secret string `json:"client_secret"`
			}
			_ = json.Unmarshal(raw, &c)
			if c.Name == "worker" {
				return c.Secret
			}
		}
		t.Fatal("no worker client in the tenant")
		return ""
	}
	apply := []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	out, err := cli.Run(apply...)
	if err != nil || !strings.Contains(out, "role_seen_by_worker = \""+emu.Demo().RoleID+"\"") {
		t.Fatalf("the worker's provider did not read the role (%v):\n%s", err, out)
	}
	first := workerSecret()
	// The rotation, with TRACE logs: neither secret may be in them.
	logFile := filepath.Join(t.TempDir(), "rotation.log")
	rotation := *cli
	rotation.Env = append(append([]string{}, cli.Env...), "TF_LOG=TRACE", "TF_LOG_PATH="+logFile)
	rotation.Write(t, "main.tf", config(2))
	outputs := ""
	for _, args := range [][]string{{"plan", "-input=false", "-no-color"}, apply} {
		out, err := rotation.Run(args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		outputs += out
	}
	second := workerSecret()
	if second == first {
		t.Fatal("changing client_secret_rotation did not rotate the secret")
	}
	logs, err := os.ReadFile(logFile)
	if err != nil || !strings.Contains(string(logs), "/rotate-secret") {
		t.Fatalf("the trace log holds no rotation (%v)", err)
	}
	for name, s := range map[string]string{"first": first, "second": second} {
		if strings.Contains(string(logs), s) || strings.Contains(outputs, s) {
			t.Errorf("the worker's %s secret is in the TRACE log or the output", name)
		}
	}
	// The worker's provider signed in with the rotated secret.
	if out, err := cli.Run("output", "-no-color"); err != nil || !strings.Contains(out, emu.Demo().RoleID) {
		t.Fatalf("outputs: %v\n%s", err, out)
	}
	state, err := os.ReadFile(filepath.Join(cli.Dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{first, second} {
		if strings.Contains(string(state), s) {
			t.Fatal("a worker's secret is in the state file")
		}
	}
	leakCheck(t, cli, map[string]string{"worker's first secret": first, "worker's second secret": second},
		[]string{"destroy", "-auto-approve", "-input=false", "-no-color"})
}

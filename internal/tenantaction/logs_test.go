package tenantaction_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// TestAccAction_secretsNotLogged applies, rotates and destroys secrets with
// TF_LOG=TRACE through the real terraform binary: no value reaches the
// logs or the output, and a write-only value is not in the state either.
func TestAccAction_secretsNotLogged(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	emu, err := emulator.Start(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	const kept, writeOnly, rotated = "kept-in-state-7f3a", "write-only-9c2e", "rotated-write-only-41d8"
	config := func(wo string, version int) string {
		return acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + strings.ReplaceAll(strings.ReplaceAll(`
resource "tenant_action" "kept" {
  name    = "logs-kept"
  code    = "exports.onExecuteCustomTokenExchange = async () => {};"
  secrets = [{ name = "KEPT", value = "`+kept+`" }]
  supported_triggers = {
    id      = "custom-token-exchange"
    version = "v1"
  }
}

resource "tenant_action" "write_only" {
  name               = "logs-write-only"
  code               = "exports.onExecuteCustomTokenExchange = async () => {};"
  secrets_wo         = [{ name = "WO", value = "WO_VALUE" }]
  secrets_wo_version = WO_VERSION
  supported_triggers = {
    id      = "custom-token-exchange"
    version = "v1"
  }
}
`, "WO_VALUE", wo), "WO_VERSION", string(rune('0'+version)))
	}
	cli := acctest.NewCLI(t, map[string]string{"main.tf": config(writeOnly, 1)})
	logFile := filepath.Join(t.TempDir(), "trace.log")
	cli.Env = append(cli.Env, "TF_LOG=TRACE", "TF_LOG_PATH="+logFile)
	var output strings.Builder
	run := func(args ...string) {
		out, err := cli.Run(args...)
		output.WriteString(out)
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out)
		}
	}
	run("apply", "-auto-approve", "-input=false", "-no-color")
	if err := os.WriteFile(filepath.Join(cli.Dir, "main.tf"), []byte(config(rotated, 2)), 0o600); err != nil {
		t.Fatal(err)
	}
	run("apply", "-auto-approve", "-input=false", "-no-color")
	show, err := cli.Run("show", "-json")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{writeOnly, rotated} {
		if strings.Contains(show, v) {
			t.Errorf("the state holds the write-only value %q", v)
		}
	}
	if !strings.Contains(show, kept) {
		t.Errorf("the state lacks the value of secrets, which it keeps by design")
	}
	run("destroy", "-auto-approve", "-input=false", "-no-color")
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logs), "/api/v2/actions/actions") || !strings.Contains(string(logs), `\"name\":\"WO\"`) {
		t.Fatal("the trace log holds no action request body: the provider's logs were not captured")
	}
	for what, text := range map[string]string{"trace log": string(logs), "output": output.String()} {
		for _, v := range []string{kept, writeOnly, rotated} {
			if i := strings.Index(text, v); i >= 0 {
				t.Errorf("the %s holds the secret value %q: ...%s...", what, v, text[max(i-300, 0):min(i+100, len(text))])
			}
		}
	}
	t.Logf("checked %d KiB of TRACE logs", len(logs)/1024)
}

package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
)

// testingScopes is the least-privilege client of the testing guide: what
// examples/testing needs to create, read, change and destroy its objects.
var testingScopes = []string{
	"read:resource_servers", "create:resource_servers", "update:resource_servers", "delete:resource_servers",
	"read:roles", "create:roles", "update:roles", "delete:roles",
}

// TestTestingGuideExample runs examples/testing as the testing guide says:
// `terraform test` against the emulator with the guide's least-privilege
// client, beside a deployed copy of the same configuration (another
// prefix), then the exchange's tests with the global client. The tests
// pass, leave nothing behind, and the deployed copy is untouched. Then the
// same exchange tests run against an action that takes any subject token,
// and the forged token's run fails: the helper's postconditions check.
func TestTestingGuideExample(t *testing.T) {
	requireAcc(t)
	if !acctest.OpenTofu() { // tofu test has it too
		acctest.RequireTerraform(t, "1.6.0", "terraform test")
	}
	emu, err := emulator.Start(emulator.Options{Clients: []emulator.Client{{ID: "tf-test", Secret: "tf-test-secret-0123", Scopes: testingScopes}}})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	// The checkout holds examples/testing and, beside it, the
	// examples/token-exchange its exchange tests deploy.
	files := map[string]string{}
	for _, name := range []string{"testing/main.tf", "testing/tests/tenant.tftest.hcl", "testing/tests/exchange.tftest.hcl",
		"testing/tests/exchange/main.tf", "token-exchange/main.tf"} {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	env := []string{"TENANT_DOMAIN=" + emu.Domain(), "TENANT_CLIENT_ID=tf-test", "TENANT_CLIENT_SECRET=tf-test-secret-0123", "TENANT_API_TOKEN="}
	checkout := func(files map[string]string) *acctest.CLI {
		t.Helper()
		root := t.TempDir()
		cli, err := acctest.PrepareCLI(root, copyFiles(files))
		if err != nil {
			t.Fatal(err)
		}
		cli.Dir = filepath.Join(root, "testing")
		cli.Env = append(cli.Env, env...)
		if out, err := cli.Run("init", "-input=false", "-no-color"); err != nil {
			t.Fatalf("init: %v\n%s", err, out)
		}
		return cli
	}

	// The deployed copy: no prefix.
	deployed := checkout(files)
	if out, err := deployed.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply of the deployed copy: %v\n%s", err, out)
	}
	before := emu.State()

	tests := checkout(files)
	out, err := tests.Run("test", "-no-color", "-filter=tests/tenant.tftest.hcl")
	if err != nil || !strings.Contains(out, "2 passed, 0 failed") {
		t.Fatalf("terraform test: %v\n%s", err, out)
	}
	// The exchange's tests deploy examples/token-exchange, whose profile
	// only the tenant's global client may create: they run with it.
	tests.Env = append(tests.Env, "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret())
	out, err = tests.Run("test", "-no-color", "-filter=tests/exchange.tftest.hcl")
	if err != nil || !strings.Contains(out, "4 passed, 0 failed") {
		t.Fatalf("terraform test of the exchange: %v\n%s", err, out)
	}

	// An action that no longer rejects a forged subject token: it reads
	// the token's claims without checking the signature.
	broken := copyFiles(files)
	broken["token-exchange/main.tf"] = acceptAnyToken.ReplaceAllLiteralString(files["token-exchange/main.tf"],
		`payload = require("jose").decodeJwt(event.transaction.subject_token);`)
	if strings.Contains(broken["token-exchange/main.tf"], "rejectInvalidSubjectToken") {
		t.Fatal("examples/token-exchange's action still rejects subject tokens after the rewrite; update acceptAnyToken")
	}
	lax := checkout(broken)
	lax.Env = append(lax.Env, "TENANT_CLIENT_ID="+emu.ClientID(), "TENANT_CLIENT_SECRET="+emu.ClientSecret())
	out, err = lax.Run("test", "-no-color", "-filter=tests/exchange.tftest.hcl")
	words := strings.Join(strings.Fields(out), " ") // diagnostics wrap where they like
	if err == nil || !strings.Contains(words, "3 passed, 1 failed") ||
		!strings.Contains(words, `run "a_forged_token_is_refused"... fail`) ||
		!strings.Contains(words, "The exchange was not refused with expected_error.") {
		t.Fatalf("terraform test of an exchange that takes a forged token did not fail its forged token's run: %v\n%s", err, out)
	}
	after := emu.State()
	if len(after.ResourceServers) != len(before.ResourceServers) || len(after.Roles) != len(before.Roles) ||
		len(after.Actions) != len(before.Actions) || len(after.TokenExchangeProfiles) != len(before.TokenExchangeProfiles) ||
		len(after.Clients) != len(before.Clients) {
		t.Fatalf("the tests left objects: %d APIs, %d roles, %d actions, %d profiles, %d clients before; %d, %d, %d, %d, %d after",
			len(before.ResourceServers), len(before.Roles), len(before.Actions), len(before.TokenExchangeProfiles), len(before.Clients),
			len(after.ResourceServers), len(after.Roles), len(after.Actions), len(after.TokenExchangeProfiles), len(after.Clients))
	}
	if out, err := deployed.Run("plan", "-input=false", "-no-color", "-detailed-exitcode"); err != nil {
		t.Fatalf("the tests changed the deployed copy: %v\n%s", err, out)
	}
}

// acceptAnyToken is examples/token-exchange's refusal of a subject token
// whose signature does not verify.
var acceptAnyToken = regexp.MustCompile(`api\.access\.rejectInvalidSubjectToken\([^)]*\);\s*return;`)

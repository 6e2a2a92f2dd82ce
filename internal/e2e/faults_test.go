package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tenant-iac/terraform-provider-tenant/internal/acctest"
	"github.com/tenant-iac/terraform-provider-tenant/internal/emulator"
	"github.com/tenant-iac/terraform-provider-tenant/internal/mgmt"
)

func requireAcc(t *testing.T) {
	t.Helper()
	if !acc() {
		t.Skip("runs the terraform CLI; set TF_ACC=1 (make test does)")
	}
}

// acc reports whether the tests that run the terraform CLI are enabled.
func acc() bool { return os.Getenv("TF_ACC") != "" }

// mixedConfig is 25 APIs with two scopes each, 25 token exchange profiles and
// the permissions of 10 roles: 60 objects.
func mixedConfig(emu *emulator.Server, roles []string) string {
	quoted := make([]string, len(roles))
	for i, r := range roles {
		quoted[i] = fmt.Sprintf("%q", r)
	}
	return acctest.ProviderHCL(emu.Domain(), emu.ClientID(), emu.ClientSecret()) + fmt.Sprintf(`
locals {
  roles = [%[2]s]
}

resource "tenant_resource_server" "api" {
  count      = 25
  identifier = "https://api.example.com/fault/${count.index}"
  name       = "fault api ${count.index}"
  scopes = {
    "read:thing"  = "Read"
    "write:thing" = "Write"
  }
}

resource "tenant_token_exchange_profile" "p" {
  count              = 25
  name               = "fault profile ${count.index}"
  subject_token_type = "urn:acme:fault:${count.index}"
  action_id          = %[1]q
}

resource "tenant_role_permissions" "r" {
  count   = 10
  role_id = local.roles[count.index]
  permissions = {
    (tenant_resource_server.api[count.index].identifier)      = ["read:thing"]
    (tenant_resource_server.api[count.index + 10].identifier) = ["write:thing"]
  }
}
`, emu.Demo().ActionID, strings.Join(quoted, ", "))
}

type tfState struct {
	Values struct {
		RootModule struct {
			Resources []struct {
				Type   string         `json:"type"`
				Values map[string]any `json:"values"`
			} `json:"resources"`
		} `json:"root_module"`
	} `json:"values"`
}

// snapshot reduces both sides to comparable sets: profile ids, custom API
// ids, and "role|identifier|permission" triples.
type snapshot struct {
	Profiles, Servers, Permissions []string
}

func fromTerraform(t *testing.T, cli *acctest.CLI) snapshot {
	t.Helper()
	out, err := cli.Run("show", "-json")
	if err != nil {
		t.Fatalf("terraform show: %v\n%s", err, out)
	}
	var st tfState
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("terraform show -json: %v", err)
	}
	var s snapshot
	for _, r := range st.Values.RootModule.Resources {
		switch r.Type {
		case "tenant_token_exchange_profile":
			s.Profiles = append(s.Profiles, r.Values["id"].(string))
		case "tenant_resource_server":
			s.Servers = append(s.Servers, r.Values["id"].(string))
		case "tenant_role_permissions":
			for ident, names := range r.Values["permissions"].(map[string]any) {
				for _, name := range names.([]any) {
					s.Permissions = append(s.Permissions, fmt.Sprintf("%s|%s|%s", r.Values["role_id"], ident, name))
				}
			}
		}
	}
	return s.sorted()
}

func fromEmulator(t *testing.T, emu *emulator.Server) snapshot {
	t.Helper()
	st := emu.State()
	var s snapshot
	for _, raw := range st.TokenExchangeProfiles {
		var p struct{ ID string }
		_ = json.Unmarshal(raw, &p)
		s.Profiles = append(s.Profiles, p.ID)
	}
	for _, raw := range st.ResourceServers {
		var rs struct {
			ID       string
			IsSystem bool `json:"is_system"`
		}
		_ = json.Unmarshal(raw, &rs)
		if !rs.IsSystem {
			s.Servers = append(s.Servers, rs.ID)
		}
	}
	for _, raw := range st.Roles {
		var ro struct {
			ID          string
			Permissions []struct {
				Identifier string `json:"resource_server_identifier"`
				Name       string `json:"permission_name"`
			}
		}
		_ = json.Unmarshal(raw, &ro)
		for _, p := range ro.Permissions {
			s.Permissions = append(s.Permissions, fmt.Sprintf("%s|%s|%s", ro.ID, p.Identifier, p.Name))
		}
	}
	return s.sorted()
}

func (s snapshot) sorted() snapshot {
	sort.Strings(s.Profiles)
	sort.Strings(s.Servers)
	sort.Strings(s.Permissions)
	return s
}

func (s snapshot) String() string {
	return fmt.Sprintf("%d profiles, %d APIs, %d permissions", len(s.Profiles), len(s.Servers), len(s.Permissions))
}

// applyUntilConverged runs cmd (apply or destroy) up to 3 times.
func applyUntilConverged(t *testing.T, cli *acctest.CLI, args ...string) int {
	t.Helper()
	var out string
	for attempt := 1; attempt <= 3; attempt++ {
		var err error
		out, err = cli.Run(args...)
		if err == nil {
			return attempt
		}
		t.Logf("terraform %s run %d failed: %s", args[0], attempt, errorSummaries(out))
	}
	t.Fatalf("terraform %s did not converge in 3 runs; last output:\n%s", args[0], out)
	return 0
}

func TestFaultSuite(t *testing.T) {
	t.Parallel() // its own emulator and folders
	requireAcc(t)
	seeds := []int64{1, 2, 3}
	if acctest.CLIPass() {
		// How a CLI keeps state after a failed apply is what this checks
		// on every CLI; the other seeds vary the faults, not the CLI.
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			emu, err := emulator.Start(emulator.Options{Demo: true})
			if err != nil {
				t.Fatal(err)
			}
			defer emu.Close()
			c, err := mgmt.New(mgmt.Config{Domain: emu.Domain(), ClientID: emu.ClientID(), ClientSecret: emu.ClientSecret()})
			if err != nil {
				t.Fatal(err)
			}
			var roles []string
			for i := range 10 {
				r, err := c.CreateRole(context.Background(), mgmt.Role{Name: fmt.Sprintf("fault-role-%d", i)})
				if err != nil {
					t.Fatal(err)
				}
				roles = append(roles, r.ID)
			}
			start := fromEmulator(t, emu)
			cli := acctest.NewCLI(t, map[string]string{"main.tf": mixedConfig(emu, roles)})

			emu.ResetStats()
			emu.SetFaults(emulator.Faults{ErrorRate: 0.10, DropRate: 0.05, LatencyMS: 100, Seed: seed})
			applies := applyUntilConverged(t, cli, "apply", "-auto-approve", "-input=false", "-no-color")
			emu.SetFaults(emulator.Faults{})
			applyStats := emu.Stats()

			got, want := fromEmulator(t, emu), fromTerraform(t, cli)
			if fmt.Sprint(got) != fmt.Sprint(want) || len(want.Profiles) != 25 || len(want.Servers) != 25 || len(want.Permissions) != 20 {
				t.Fatalf("emulator holds %v, terraform state %v:\nemulator  %v\nterraform %v", got, want, got, want)
			}
			if out, err := cli.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
				t.Fatalf("the plan after convergence is not empty: %v\n%s", err, out)
			}

			emu.SetFaults(emulator.Faults{ErrorRate: 0.10, DropRate: 0.05, LatencyMS: 100, Seed: seed + 100})
			destroys := applyUntilConverged(t, cli, "destroy", "-auto-approve", "-input=false", "-no-color")
			emu.SetFaults(emulator.Faults{})
			if end := fromEmulator(t, emu); fmt.Sprint(end) != fmt.Sprint(start) {
				t.Fatalf("after destroy the emulator holds %v, it started with %v", end, start)
			}
			total := emu.Stats()
			faults := total.ByStatus["500"] + total.ByStatus["502"] + total.ByStatus["503"] + total.ByStatus["dropped"]
			t.Logf("seed %d: converged after %d apply(s) and %d destroy(s); %d requests (%d during apply), %d faults injected "+
				"(500:%d 502:%d 503:%d dropped:%d); 0 lost, 0 orphans, 0 duplicates",
				seed, applies, destroys, total.Total, applyStats.Total, faults,
				total.ByStatus["500"], total.ByStatus["502"], total.ByStatus["503"], total.ByStatus["dropped"])
		})
	}
}

// errorSummaries lists the "Error:" lines of terraform output with the
// line that follows each, for the test log.
func errorSummaries(out string) string {
	lines := strings.Split(out, "\n")
	var sum []string
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "Error:") {
			detail := ""
			for j := i + 1; j < len(lines) && j < i+12; j++ {
				if t := strings.TrimSpace(lines[j]); t != "" && !strings.HasPrefix(t, "with ") && !strings.HasPrefix(t, "on ") && !strings.Contains(t, ": resource") {
					detail = t
					break
				}
			}
			sum = append(sum, strings.TrimSpace(l)+" / "+detail)
		}
	}
	return strings.Join(sum, "; ")
}
